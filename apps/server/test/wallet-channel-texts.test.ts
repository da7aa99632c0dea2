/**
 * Issue 17, defects 8 and 10, through the HTTP calls. A fresh installation's channels are the
 * seed's examples: marked (`isExample`) until an operator saves them, their texts in the reader's
 * language. Operators write channel texts by language (English required, known languages, bounded)
 * and users read them in the request's language, English when theirs is missing. The confirmation
 * of a withdrawal gets the user's own bound card or address whole; lists stay masked.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGE_KEYS } from '@bourse/shared';
import { ensureFirstAdmin } from '../src/modules/admin/service';
import { call, createTestApp, registerUser, type TestApp } from './helpers';
import { adminApiCall, operatorReady } from './support/admin-api';
import { flatPng } from './support/test-images';

const USD = 1;
const USDT = 3;
/** Seeded channels (seed.ts): deposits 1 bank USD, 2 USDT TRC20; withdrawals 1 bank USD, 2 TRC20. */
const RECHARGE_BANK_USD = 1;
const RECHARGE_USDT_TRC20 = 2;
const WITHDRAW_BANK_USD = 1;
const WITHDRAW_USDT_TRC20 = 2;
const ADMIN = 'admin';
const ADMIN_PASSWORD = 'channel texts admin password';
const TRC20 = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const CARD = {
  bankName: 'First Test Bank',
  accountName: 'Ada Lovelace',
  cardNumber: '6222021234567890',
};

let t: TestApp;
let operatorToken: string;

beforeAll(async () => {
  t = await createTestApp();
  await ensureFirstAdmin(t.db, t.clock, ADMIN, ADMIN_PASSWORD);
  operatorToken = await operatorReady(t.app, ADMIN, ADMIN_PASSWORD);
});
afterAll(async () => {
  await t.close();
});

const locale = (lang: string): Record<string, string> =>
  JSON.parse(
    readFileSync(new URL(`../../../packages/shared/locales/${lang}.json`, import.meta.url), 'utf8'),
  ) as Record<string, string>;

/** The deposit channels as the app lists them, in a language (the spec's LanguageId). */
async function rechargeChannels(languageId?: string): Promise<any[]> {
  const result = await call(t.app, 'GET', '/api/rechargeChannelConfig/list', {
    headers: languageId ? { languageid: languageId } : {},
  });
  expect(result.status).toBe(200);
  return result.body.data as any[];
}

async function withdrawChannels(token: string, acceptLanguage?: string): Promise<any[]> {
  const result = await call(t.app, 'GET', '/api/withdrawChannelConfig/list', {
    token,
    headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {},
  });
  expect(result.status).toBe(200);
  return result.body.data as any[];
}

const byId = (rows: any[], id: number) => rows.find((row) => row.id === id);

function saveRecharge(json: Record<string, unknown>) {
  return adminApiCall(t.app, 'POST', '/channels/recharge/save', { token: operatorToken, json });
}

function saveWithdraw(json: Record<string, unknown>) {
  return adminApiCall(t.app, 'POST', '/channels/withdraw/save', { token: operatorToken, json });
}

/** Deposit channel 2 (USDT TRC20) as saved, with `fields` changed. */
const TRC20_DEPOSIT = {
  id: RECHARGE_USDT_TRC20,
  channelType: 2,
  channelName: 'USDT (TRC20)',
  currencyId: USDT,
  network: 'TRC20',
  depositAddress: TRC20,
  minAmount: '10',
  maxAmount: '500000',
  remark: '',
  sort: 1,
  isVisible: 1,
};

describe("a fresh installation's example channels", () => {
  it("are marked as examples, their texts in the reader's language and English by default", async () => {
    const english = byId(await rechargeChannels(), RECHARGE_BANK_USD);
    expect(english).toMatchObject({
      channelName: 'Bank transfer (USD)',
      bankName: 'Example Bank',
      accountName: 'Bourse client funds',
      remark: 'Example details of a fresh installation: the operator replaces them.',
      isExample: true,
      // Numbers are never translated.
      accountNumber: 'DE89370400440532013000',
    });
    const fr = locale('fr');
    // LanguageId 6: French.
    expect(byId(await rechargeChannels('6'), RECHARGE_BANK_USD)).toMatchObject({
      channelName: fr.seed_channelBankUsd,
      bankName: fr.seed_exampleBank,
      accountName: fr.seed_exampleHolder,
      remark: fr.seed_exampleRemark,
      isExample: true,
    });
    // Arabic (LanguageId 18) as well, and no channel of the seed reads as real.
    const arabic = await rechargeChannels('18');
    expect(byId(arabic, RECHARGE_BANK_USD).bankName).toBe(locale('ar').seed_exampleBank);
    expect(arabic.every((channel) => channel.isExample)).toBe(true);
    expect(new Set(arabic.map((channel) => channel.remark))).toEqual(
      new Set([locale('ar').seed_exampleRemark]),
    );

    const user = await registerUser(t.app);
    const japanese = await withdrawChannels(user.token, 'ja');
    expect(byId(japanese, WITHDRAW_BANK_USD)).toMatchObject({
      channelName: locale('jp').seed_channelBankUsd,
      isExample: true,
    });
    // A name without words keeps its one text.
    expect(byId(japanese, WITHDRAW_USDT_TRC20).channelName).toBe('USDT (TRC20)');
  });
});

describe("operators' channel texts by language", () => {
  it('are read in the request language, English when it has none; a save ends the example', async () => {
    const saved = await saveRecharge({
      ...TRC20_DEPOSIT,
      channelNameLang: { en: 'Tether on Tron', fr: 'Tether sur Tron', de: '   ' },
      remarkLang: { en: 'Arrives after 20 confirmations.', ar: 'يصل بعد 20 تأكيدًا.' },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    // The plain column is the English text; a language left blank is left out.
    expect(saved.body.data).toMatchObject({
      channel_name: 'Tether on Tron',
      channel_name_lang: { en: 'Tether on Tron', fr: 'Tether sur Tron' },
      remark: 'Arrives after 20 confirmations.',
      is_example: 0,
    });

    expect(byId(await rechargeChannels('6'), RECHARGE_USDT_TRC20)).toMatchObject({
      channelName: 'Tether sur Tron',
      remark: 'Arrives after 20 confirmations.',
      isExample: false,
    });
    expect(byId(await rechargeChannels('18'), RECHARGE_USDT_TRC20)).toMatchObject({
      channelName: 'Tether on Tron',
      remark: 'يصل بعد 20 تأكيدًا.',
    });
    // German (4) was left blank: English.
    expect(byId(await rechargeChannels('4'), RECHARGE_USDT_TRC20).channelName).toBe(
      'Tether on Tron',
    );
    // The other example channels stay examples.
    expect(byId(await rechargeChannels(), RECHARGE_BANK_USD).isExample).toBe(true);

    // A save without texts by language: one text for every language.
    const plain = await saveRecharge({ ...TRC20_DEPOSIT, channelName: 'USDT on TRC20' });
    expect(plain.status).toBe(200);
    expect(plain.body.data.channel_name_lang).toEqual({});
    expect(byId(await rechargeChannels('6'), RECHARGE_USDT_TRC20).channelName).toBe(
      'USDT on TRC20',
    );

    const consoleList = await adminApiCall(t.app, 'GET', '/channels/recharge?pageSize=100', {
      token: operatorToken,
    });
    expect(consoleList.status).toBe(200);
    expect(byId(consoleList.body.rows!, RECHARGE_USDT_TRC20).is_example).toBe(0);
    expect(byId(consoleList.body.rows!, RECHARGE_BANK_USD)).toMatchObject({
      is_example: 1,
      bank_name_lang: expect.objectContaining({ en: 'Example Bank' }),
    });
  });

  it("name the channel in the reader's language in the user's own deposit records", async () => {
    const saved = await saveRecharge({
      ...TRC20_DEPOSIT,
      channelName: 'Tether on Tron',
      channelNameLang: { en: 'Tether on Tron', fr: 'Tether sur Tron' },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const user = await registerUser(t.app);
    const proof = `data:image/png;base64,${(await flatPng(64, 48)).toString('base64')}`;
    const submit = (headers: Record<string, string>) =>
      call(t.app, 'POST', '/api/userRecharge/inMoney', {
        token: user.token,
        headers,
        json: {
          channelId: RECHARGE_USDT_TRC20,
          amount: '100',
          proofImage: proof,
          requestId: `channel-texts-${user.userId}`,
        },
      });
    const submitted = await submit({ 'accept-language': 'fr' });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(submitted.body.data.channelName).toBe('Tether sur Tron');
    // The same request id again, in English: the first request, named in English.
    expect((await submit({})).body.data.channelName).toBe('Tether on Tron');
    const id = submitted.body.data.id as number;

    const newest = async (headers: Record<string, string>) =>
      (await call(t.app, 'GET', '/api/userRecharge/list', { token: user.token, headers })).body
        .rows?.[0] as { id: number; channelName: string } | undefined;
    expect(await newest({ languageid: '6' })).toMatchObject({ id, channelName: 'Tether sur Tron' });
    expect((await newest({}))?.channelName).toBe('Tether on Tron');
    const detail = await call(t.app, 'GET', '/api/userRecharge/detail', {
      token: user.token,
      headers: { 'accept-language': 'fr' },
      query: { id: String(id) },
    });
    expect(detail.body.data.channelName).toBe('Tether sur Tron');
    // The channel as the test before left it, for the tests after.
    expect((await saveRecharge({ ...TRC20_DEPOSIT, channelName: 'USDT on TRC20' })).status).toBe(
      200,
    );
  });

  it('translate the bank account of a deposit channel, and a withdrawal channel loses its mark', async () => {
    const bank = await saveRecharge({
      id: RECHARGE_BANK_USD,
      channelType: 1,
      channelName: 'Wire',
      currencyId: USD,
      bankName: 'ignored: the English text of bankNameLang wins',
      bankNameLang: { en: 'Harbour Bank', ar: 'بنك الميناء' },
      accountName: 'Bourse Ltd',
      accountNumber: 'DE89370400440532013000',
      minAmount: '10',
      maxAmount: '100000',
      remark: '',
      sort: 0,
      isVisible: 1,
    });
    expect(bank.status, JSON.stringify(bank.body)).toBe(200);
    expect(byId(await rechargeChannels('18'), RECHARGE_BANK_USD)).toMatchObject({
      bankName: 'بنك الميناء',
      accountName: 'Bourse Ltd',
      isExample: false,
    });
    expect(byId(await rechargeChannels(), RECHARGE_BANK_USD).bankName).toBe('Harbour Bank');

    const user = await registerUser(t.app);
    expect(byId(await withdrawChannels(user.token), WITHDRAW_USDT_TRC20).isExample).toBe(true);
    const saved = await saveWithdraw({
      id: WITHDRAW_USDT_TRC20,
      channelType: 2,
      channelName: 'USDT (TRC20)',
      currencyId: USDT,
      network: 'TRC20',
      feeRate: '0',
      fixedFee: '1',
      minAmount: '10',
      maxAmount: '100000',
      dailyLimit: '200000',
      remark: '',
      sort: 1,
      isVisible: 1,
      channelNameLang: { en: 'USDT (TRC20)', zh: 'USDT（波场 TRC20）' },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.is_example).toBe(0);
    const chinese = await withdrawChannels(user.token, 'zh-CN');
    expect(byId(chinese, WITHDRAW_USDT_TRC20)).toMatchObject({
      channelName: 'USDT（波场 TRC20）',
      isExample: false,
    });
    expect(byId(chinese, WITHDRAW_BANK_USD).isExample).toBe(true);
  });

  it('are refused with a translated key: unknown language, no English, too long', async () => {
    const cases: [Record<string, unknown>, string, unknown[]][] = [
      [{ channelNameLang: { en: 'A', xx: 'B' } }, 'hint_langInvalid', ['channelNameLang']],
      [{ channelNameLang: { fr: 'Tether' } }, 'hint_langEnglishRequired', ['channelNameLang']],
      [{ remarkLang: { en: '   ', de: 'Hinweis' } }, 'hint_langEnglishRequired', ['remarkLang']],
      [
        { channelNameLang: { en: 'A', fr: 'x'.repeat(65) } },
        'hint_paramTooLong',
        ['channelNameLang.fr', 64],
      ],
      [{ remarkLang: { en: 'x'.repeat(501) } }, 'hint_paramTooLong', ['remarkLang.en', 500]],
      [{ channelNameLang: ['en', 'A'] }, 'hint_paramInvalid', ['channelNameLang']],
    ];
    for (const [fields, msg, params] of cases) {
      const refused = await saveRecharge({ ...TRC20_DEPOSIT, ...fields });
      expect(refused.status, JSON.stringify(fields)).toBe(400);
      expect(refused.body.msg).toBe(msg);
      expect(refused.body.params).toEqual(params);
      // The app translates the key in every language.
      for (const lang of LANGUAGE_KEYS) expect(locale(lang)[msg], `${lang} ${msg}`).toBeTruthy();
    }
    // Nothing was saved: the channel reads as before.
    expect(byId(await rechargeChannels('6'), RECHARGE_USDT_TRC20).channelName).toBe(
      'USDT on TRC20',
    );
  });
});

describe("a withdrawal's destination, whole for its owner", () => {
  it('answers the bound address and card unmasked to their owner only; the lists stay masked', async () => {
    const owner = await registerUser(t.app);
    const other = await registerUser(t.app);
    const address = await call(t.app, 'POST', '/api/userWalletAddress/addUserWalletAddress', {
      token: owner.token,
      form: { currencyId: String(USDT), network: 'TRC20', address: TRC20 },
    });
    expect(address.status).toBe(200);
    const card = await call(t.app, 'POST', '/api/userBank/addUserBankCard', {
      token: owner.token,
      form: CARD,
    });
    expect(card.status).toBe(200);
    const list = await call(t.app, 'GET', '/api/userWalletAddress/list', { token: owner.token });
    expect(list.body.rows![0].address).not.toBe(TRC20);
    expect(JSON.stringify(list.body)).not.toContain(TRC20);

    const whole = await call(t.app, 'GET', '/api/userWithdraw/destination', {
      token: owner.token,
      query: { addressId: String(address.body.data.id) },
    });
    expect(whole.status).toBe(200);
    expect(whole.body.data).toEqual({ kind: 'address', network: 'TRC20', address: TRC20 });
    expect(whole.headers['cache-control']).toBe('private, no-store');

    const wholeCard = await call(t.app, 'GET', '/api/userWithdraw/destination', {
      token: owner.token,
      query: { bankId: String(card.body.data.id) },
    });
    expect(wholeCard.body.data).toEqual({ kind: 'bank', ...CARD });

    // Another user's card or address is not found; signed out is 401; nothing named is refused.
    const stranger = await call(t.app, 'GET', '/api/userWithdraw/destination', {
      token: other.token,
      query: { addressId: String(address.body.data.id) },
    });
    expect(stranger.status).toBe(404);
    expect(stranger.body.msg).toBe('hint_walletAddressNotFound');
    expect(JSON.stringify(stranger.body)).not.toContain(TRC20);
    const strangerCard = await call(t.app, 'GET', '/api/userWithdraw/destination', {
      token: other.token,
      query: { bankId: String(card.body.data.id) },
    });
    expect(strangerCard.body.msg).toBe('hint_bankCardNotFound');
    const signedOut = await call(t.app, 'GET', '/api/userWithdraw/destination', {
      query: { addressId: String(address.body.data.id) },
    });
    expect(signedOut.status).toBe(401);
    const neither = await call(t.app, 'GET', '/api/userWithdraw/destination', {
      token: owner.token,
    });
    expect(neither.status).toBe(400);
    expect(neither.body.msg).toBe('hint_paramRequired');

    // A deleted address is gone for good.
    const deleted = await call(t.app, 'POST', '/api/userWalletAddress/deleteUserWalletAddress', {
      token: owner.token,
      form: { id: String(address.body.data.id) },
    });
    expect(deleted.status).toBe(200);
    const gone = await call(t.app, 'GET', '/api/userWithdraw/destination', {
      token: owner.token,
      query: { addressId: String(address.body.data.id) },
    });
    expect(gone.body.msg).toBe('hint_walletAddressNotFound');
  });
});
