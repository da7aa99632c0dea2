/**
 * Bank cards and wallet addresses of the signed-in user (PRODUCT section 5). Card fields, and
 * which are required, come from bankPropertyConfig (configType 0); an address must be on one of
 * its currency's networks and have that network's format. Card numbers and addresses are masked
 * in every answer while their switch is on. Cards and addresses belong to the user, not to a
 * book, so live and demo sessions see the same ones. Deleted rows are kept (marked), because
 * withdrawals refer to them.
 */
import {
  MAX_BANK_CARDS,
  MAX_WALLET_ADDRESSES,
  SWITCH,
  isWalletAddress,
  maskBankCard,
  maskWalletAddress,
  networksOf,
  type BankCard,
  type BankCardBody,
  type LanguageKey,
  type WalletAddress,
  type WalletAddressBody,
} from '@bourse/shared';
import type { Database, Queryable } from '../../db/database';
import { withUserLock } from '../../db/user-lock';
import type { Clock } from '../../lib/clock';
import { AppError, assert } from '../../lib/errors';
import { translate } from '../../lib/i18n';
import type { BankPropertyRow, SettingsService } from '../settings';
import * as repo from './repo';
import { usableFrom } from './whitelist';

export interface PaymentMethodDeps {
  db: Database;
  settings: SettingsService;
  clock: Clock;
}

/** The field that identifies a card: always accepted and required, whatever the configuration. */
export const CARD_NUMBER_FIELD = 'cardNumber';
/** What the card_number column accepts once spaces are gone and letters are upper case. */
const CARD_NUMBER = /^[0-9A-Z]{6,34}$/;
const CONTROL_CHARACTERS = /\p{Cc}/u;

interface CardField {
  name: string;
  label: string;
  required: boolean;
  digits: boolean;
  maxLength: number;
}

export class PaymentMethodService {
  constructor(private readonly deps: PaymentMethodDeps) {}

  // -------------------------------------------------------------- bank cards

  async listBankCards(userId: number): Promise<BankCard[]> {
    const [rows, mask, config] = await Promise.all([
      repo.bankCards.list(this.deps.db, userId),
      this.deps.settings.switchOn(SWITCH.maskBankCard),
      this.deps.settings.bankProperties(0),
    ]);
    return rows.map((row) => toBankCard(row, mask, config));
  }

  async addBankCard(userId: number, body: BankCardBody, lang: LanguageKey): Promise<BankCard> {
    const config = await this.deps.settings.bankProperties(0);
    const card = cardFromBody(body, fieldsOf(config, lang));
    const row = await this.deps.db.transaction(async (tx) => {
      await this.lockUser(tx, userId);
      if ((await repo.bankCards.count(tx, userId)) >= MAX_BANK_CARDS)
        throw new AppError('hint_tooManyBankCards', 422, [MAX_BANK_CARDS]);
      if (await repo.bankCardIdByNumber(tx, userId, card.cardNumber))
        throw new AppError('hint_bankCardExists', 409);
      return repo.insertBankCard(tx, { userId, ...card, at: this.deps.clock.now() });
    });
    return toBankCard(row, await this.deps.settings.switchOn(SWITCH.maskBankCard), config);
  }

  /**
   * Changes a card. Fields left out keep their values (so the card number, shown masked, need not
   * be sent again); a field sent empty is cleared, unless it is required.
   */
  async updateBankCard(
    userId: number,
    id: number,
    body: BankCardBody,
    lang: LanguageKey,
  ): Promise<BankCard> {
    const config = await this.deps.settings.bankProperties(0);
    const fields = fieldsOf(config, lang);
    const row = await this.deps.db.transaction(async (tx) => {
      await this.lockUser(tx, userId);
      const existing = await repo.bankCards.find(tx, userId, id);
      if (!existing) throw new AppError('hint_bankCardNotFound', 404);
      const card = cardFromBody(body, fields, {
        ...existing.properties,
        [CARD_NUMBER_FIELD]: existing.card_number,
      });
      if (await repo.bankCardIdByNumber(tx, userId, card.cardNumber, id))
        throw new AppError('hint_bankCardExists', 409);
      const updated = await repo.updateBankCard(tx, {
        id,
        userId,
        ...card,
        at: this.deps.clock.now(),
      });
      assert(updated, 'a locked card disappeared');
      return updated;
    });
    return toBankCard(row, await this.deps.settings.switchOn(SWITCH.maskBankCard), config);
  }

  async deleteBankCard(userId: number, id: number): Promise<void> {
    if (!(await repo.bankCards.markDeleted(this.deps.db, userId, id, this.deps.clock.now())))
      throw new AppError('hint_bankCardNotFound', 404);
  }

  // -------------------------------------------------------------- wallet addresses

  async listWalletAddresses(userId: number, currencyId?: number): Promise<WalletAddress[]> {
    const [rows, mask] = await Promise.all([
      repo.listWalletAddresses(this.deps.db, userId, currencyId),
      this.deps.settings.switchOn(SWITCH.maskWalletAddress),
    ]);
    return rows.map((row) => toWalletAddress(row, mask));
  }

  async addWalletAddress(userId: number, body: WalletAddressBody): Promise<WalletAddress> {
    const address = await this.checkAddress(body);
    const id = await this.deps.db.transaction(async (tx) => {
      await this.lockUser(tx, userId);
      if ((await repo.walletAddresses.count(tx, userId)) >= MAX_WALLET_ADDRESSES)
        throw new AppError('hint_tooManyWalletAddresses', 422, [MAX_WALLET_ADDRESSES]);
      const key = { userId, ...address };
      if (await repo.walletAddressIdByKey(tx, key))
        throw new AppError('hint_walletAddressExists', 409);
      return repo.insertWalletAddress(tx, {
        ...key,
        remark: body.remark ?? null,
        at: this.deps.clock.now(),
      });
    });
    return this.walletAddress(userId, id);
  }

  async modifyWalletAddress(
    userId: number,
    id: number,
    body: WalletAddressBody,
  ): Promise<WalletAddress> {
    const address = await this.checkAddress(body);
    await this.deps.db.transaction(async (tx) => {
      await this.lockUser(tx, userId);
      if (!(await repo.walletAddresses.find(tx, userId, id)))
        throw new AppError('hint_walletAddressNotFound', 404);
      const key = { userId, ...address };
      if (await repo.walletAddressIdByKey(tx, key, id))
        throw new AppError('hint_walletAddressExists', 409);
      const updated = await repo.updateWalletAddress(tx, {
        ...key,
        id,
        remark: body.remark ?? null,
        at: this.deps.clock.now(),
      });
      assert(updated, 'a locked address disappeared');
    });
    return this.walletAddress(userId, id);
  }

  async deleteWalletAddress(userId: number, id: number): Promise<void> {
    if (!(await repo.walletAddresses.markDeleted(this.deps.db, userId, id, this.deps.clock.now())))
      throw new AppError('hint_walletAddressNotFound', 404);
  }

  // -------------------------------------------------------------- helpers

  /** Adds and edits of one user's cards and addresses run one at a time (the user lock). */
  private async lockUser(tx: Queryable, userId: number): Promise<void> {
    assert(await withUserLock(tx, userId), `no user ${userId} behind a live session`);
  }

  private async walletAddress(userId: number, id: number): Promise<WalletAddress> {
    const [row, mask] = await Promise.all([
      repo.walletAddresses.find(this.deps.db, userId, id),
      this.deps.settings.switchOn(SWITCH.maskWalletAddress),
    ]);
    assert(row, `wallet address ${id} vanished after being written`);
    return toWalletAddress(row, mask);
  }

  /** The currency exists, offers the network (named in any case) and the address fits it. */
  private async checkAddress(
    body: WalletAddressBody,
  ): Promise<{ currencyId: number; network: string; address: string }> {
    const currency = await this.deps.settings.currency(body.currencyId);
    if (!currency) throw new AppError('hint_currencyUnknown', 404, ['currencyId']);
    const networks = networksOf(currency.walletAddressType);
    if (networks.length === 0)
      throw new AppError('hint_currencyNoNetwork', 422, [currency.currencyName]);
    const network = networks.find((name) => name.toUpperCase() === body.network.toUpperCase());
    if (!network)
      throw new AppError('hint_networkNotOffered', 422, [
        body.network,
        currency.currencyName,
        networks.join(', '),
      ]);
    if (!isWalletAddress(network, body.address))
      throw new AppError('hint_walletAddressInvalid', 400, [network]);
    return { currencyId: currency.id, network, address: body.address };
  }
}

// ---------------------------------------------------------------- bank card fields

function fieldsOf(config: readonly BankPropertyRow[], lang: LanguageKey): CardField[] {
  const fields = config.map((row) => ({
    name: row.property_name,
    label: translate(lang, row.label_key),
    required: row.is_required === 1 || row.property_name === CARD_NUMBER_FIELD,
    digits: row.input_type === 'digits',
    maxLength: row.max_length,
  }));
  if (!fields.some((field) => field.name === CARD_NUMBER_FIELD)) {
    fields.push({
      name: CARD_NUMBER_FIELD,
      label: translate(lang, `bank_${CARD_NUMBER_FIELD}`),
      required: true,
      digits: false,
      maxLength: 34,
    });
  }
  return fields;
}

/**
 * Checks the submitted fields against the configuration and gives the card to store: every
 * configured field (empty when not given), the card number without spaces and in upper case.
 * Field errors name the field by its translated label.
 */
function cardFromBody(
  body: BankCardBody,
  fields: readonly CardField[],
  current: Readonly<Record<string, string>> = {},
): { cardNumber: string; properties: Record<string, string> } {
  const byName = new Map(fields.map((field) => [field.name, field]));
  for (const name of Object.keys(body)) {
    if (!byName.has(name)) throw new AppError('hint_bankFieldUnknown', 400, [name]);
  }
  const properties: Record<string, string> = {};
  for (const field of fields) {
    const value = fieldValue(body[field.name], field);
    properties[field.name] = value ?? current[field.name] ?? '';
    if (field.required && properties[field.name] === '')
      throw new AppError('hint_paramRequired', 400, [field.label]);
  }
  const cardNumber = properties[CARD_NUMBER_FIELD]!;
  if (!CARD_NUMBER.test(cardNumber))
    throw new AppError('hint_bankCardNumberInvalid', 400, [byName.get(CARD_NUMBER_FIELD)!.label]);
  return { cardNumber, properties };
}

/** A submitted value as stored; undefined when the field was not sent. */
function fieldValue(raw: unknown, field: CardField): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string') throw new AppError('hint_paramInvalid', 400, [field.label]);
  // Bounded before any work on it (spaces inside a card number are allowed).
  if (raw.length > field.maxLength * 2 + 16)
    throw new AppError('hint_paramTooLong', 400, [field.label, field.maxLength]);
  let value = raw.trim();
  if (field.name === CARD_NUMBER_FIELD) value = value.replace(/\s+/g, '').toUpperCase();
  else value = value.replace(/\s+/g, ' ');
  if (CONTROL_CHARACTERS.test(value)) throw new AppError('hint_paramInvalid', 400, [field.label]);
  if (field.digits && value !== '' && !/^\d+$/.test(value))
    throw new AppError('hint_bankFieldDigits', 400, [field.label]);
  if (value.length > field.maxLength)
    throw new AppError('hint_paramTooLong', 400, [field.label, field.maxLength]);
  return value;
}

// ---------------------------------------------------------------- answers

function toBankCard(
  row: repo.BankCardRow,
  mask: boolean,
  config: readonly BankPropertyRow[],
): BankCard {
  const shown = mask ? maskBankCard(row.card_number) : row.card_number;
  const properties: Record<string, string> = {};
  for (const field of config) properties[field.property_name] = '';
  for (const [name, value] of Object.entries(row.properties)) properties[name] = String(value);
  properties[CARD_NUMBER_FIELD] = shown;
  return {
    id: row.id,
    cardNumber: shown,
    bankName: properties.bankName ?? '',
    accountName: properties.accountName ?? '',
    properties,
    createTime: row.created_at.toISOString(),
    usableFrom: usableFrom(row).toISOString(),
  };
}

function toWalletAddress(row: repo.WalletAddressRow, mask: boolean): WalletAddress {
  return {
    id: row.id,
    currencyId: row.currency_id,
    currencyName: row.currency_name,
    network: row.network,
    address: mask ? maskWalletAddress(row.address) : row.address,
    remark: row.remark,
    createTime: row.created_at.toISOString(),
    usableFrom: usableFrom(row).toISOString(),
  };
}
