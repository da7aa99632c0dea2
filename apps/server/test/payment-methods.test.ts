/**
 * Bank cards (/api/userBank) and wallet addresses (/api/userWalletAddress): every call, every
 * refusal, masking by the switches, other users' rows and soft deletion.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BANK_CARDS, MAX_WALLET_ADDRESSES, SWITCH } from '@bourse/shared';
import { call, createTestApp, registerUser, type TestApp } from './helpers';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

async function setSwitch(name: string, status: 0 | 1): Promise<void> {
  await t.db.query('UPDATE switch_set SET status = $2 WHERE switch_name = $1', [name, status]);
  t.app.services.settings.invalidate();
}

afterEach(async () => {
  // Every test starts from the seeded switches (both masks on).
  await setSwitch(SWITCH.maskBankCard, 1);
  await setSwitch(SWITCH.maskWalletAddress, 1);
});

const CARD = {
  bankName: 'First Test Bank',
  accountName: 'Ada Lovelace',
  cardNumber: '6222 0212 3456 7890',
};
const ERC20 = '0x52908400098527886E0F7030069857D2E4169EE7';
const ERC20_B = '0xde709f2102306220921060314715629080e2fb77';
const TRC20 = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const BTC = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

function addCard(token: string, fields: Record<string, string> = CARD) {
  return call(t.app, 'POST', '/api/userBank/addUserBankCard', { token, form: fields });
}

function listCards(token: string) {
  return call(t.app, 'GET', '/api/userBank/list', { token });
}

function addAddress(token: string, fields: Record<string, string>) {
  return call(t.app, 'POST', '/api/userWalletAddress/addUserWalletAddress', {
    token,
    form: fields,
  });
}

function listAddresses(token: string, query?: Record<string, string>) {
  return call(t.app, 'GET', '/api/userWalletAddress/list', { token, query });
}

describe('bank cards', () => {
  it('needs a signed-in user for every call', async () => {
    for (const [method, url] of [
      ['GET', '/api/userBank/list'],
      ['POST', '/api/userBank/addUserBankCard'],
      ['POST', '/api/userBank/updateUserBankCard'],
      ['POST', '/api/userBank/userDeleteBankCard'],
    ] as const) {
      const result = await call(t.app, method, url, { form: method === 'POST' ? CARD : undefined });
      expect(result.status).toBe(401);
      expect(result.body).toMatchObject({ code: 401, msg: 'hint_unauthorized' });
    }
  });

  it('binds a card: spaces dropped from the number, every configured field kept, number masked', async () => {
    const user = await registerUser(t.app);
    const empty = await listCards(user.token);
    expect(empty.body).toMatchObject({ code: 200, rows: [], total: 0 });

    const added = await addCard(user.token, { ...CARD, swiftCode: ' TESTGB2L ' });
    expect(added.status).toBe(200);
    expect(added.body.code).toBe(200);
    const card = added.body.data;
    expect(card).toMatchObject({
      cardNumber: '6222********7890',
      bankName: 'First Test Bank',
      accountName: 'Ada Lovelace',
    });
    expect(card.id).toEqual(expect.any(Number));
    expect(new Date(card.createTime).toISOString()).toBe(card.createTime);
    expect(card.properties).toEqual({
      bankName: 'First Test Bank',
      accountName: 'Ada Lovelace',
      cardNumber: '6222********7890',
      branchName: '',
      swiftCode: 'TESTGB2L',
      iban: '',
      bankAddress: '',
    });

    const stored = await t.db.query<{ card_number: string; properties: Record<string, string> }>(
      'SELECT card_number, properties FROM user_bank WHERE id = $1',
      [card.id],
    );
    expect(stored.rows[0]!.card_number).toBe('6222021234567890');
    expect(stored.rows[0]!.properties.cardNumber).toBe('6222021234567890');

    const list = await listCards(user.token);
    expect(list.body.total).toBe(1);
    expect(list.body.rows).toEqual([card]);
    expect(JSON.stringify(list.body)).not.toContain('6222021234567890');
  });

  it('accepts a JSON body as well as a form', async () => {
    const user = await registerUser(t.app);
    const added = await call(t.app, 'POST', '/api/userBank/addUserBankCard', {
      token: user.token,
      json: { ...CARD, cardNumber: '12345678' },
    });
    expect(added.status).toBe(200);
    // Shorter than 9: two digits kept at each end.
    expect(added.body.data.cardNumber).toBe('12****78');
  });

  it('shows whole numbers when the masking switch is off, and masks again when it is on', async () => {
    const user = await registerUser(t.app);
    await setSwitch(SWITCH.maskBankCard, 0);
    const added = await addCard(user.token);
    expect(added.body.data.cardNumber).toBe('6222021234567890');
    expect(added.body.data.properties.cardNumber).toBe('6222021234567890');
    expect((await listCards(user.token)).body.rows![0].cardNumber).toBe('6222021234567890');

    await setSwitch(SWITCH.maskBankCard, 1);
    const list = await listCards(user.token);
    expect(list.body.rows![0].cardNumber).toBe('6222********7890');
    expect(list.body.rows![0].properties.cardNumber).toBe('6222********7890');
  });

  it('refuses missing required fields, naming the field by its label', async () => {
    const user = await registerUser(t.app);
    const noBank = await addCard(user.token, { accountName: 'A B', cardNumber: '62220212345' });
    expect(noBank.status).toBe(400);
    expect(noBank.body).toMatchObject({
      code: 500,
      msg: 'hint_paramRequired',
      params: ['Bank name'],
    });
    expect(noBank.body.text).toBe('Bank name is required');

    const blankNumber = await addCard(user.token, { ...CARD, cardNumber: '   ' });
    expect(blankNumber.body).toMatchObject({
      msg: 'hint_paramRequired',
      params: ['Account number'],
    });

    // Labels follow the request's language, as bankPropertyConfig/list shows them.
    const config = await call(t.app, 'GET', '/api/bankPropertyConfig/list', {
      query: { configType: '0' },
      headers: { 'accept-language': 'de' },
    });
    const germanLabel = config.body.rows!.find((row) => row.propertyName === 'bankName').label;
    expect(germanLabel).not.toBe('Bank name');
    const german = await call(t.app, 'POST', '/api/userBank/addUserBankCard', {
      token: user.token,
      form: { accountName: 'A B', cardNumber: '62220212345' },
      headers: { 'accept-language': 'de' },
    });
    expect(german.body).toMatchObject({ msg: 'hint_paramRequired', params: [germanLabel] });
    expect((await listCards(user.token)).body.total).toBe(0);
  });

  it('refuses letters in the digits-only card number, too long fields and unknown fields', async () => {
    const user = await registerUser(t.app);
    const letters = await addCard(user.token, { ...CARD, cardNumber: '6222 0212 ABCD' });
    expect(letters.status).toBe(400);
    expect(letters.body).toMatchObject({ msg: 'hint_bankFieldDigits', params: ['Account number'] });

    const short = await addCard(user.token, { ...CARD, cardNumber: '12345' });
    expect(short.body).toMatchObject({
      msg: 'hint_bankCardNumberInvalid',
      params: ['Account number'],
    });

    const longNumber = await addCard(user.token, { ...CARD, cardNumber: '1'.repeat(35) });
    expect(longNumber.body).toMatchObject({
      msg: 'hint_paramTooLong',
      params: ['Account number', 34],
    });

    const longName = await addCard(user.token, { ...CARD, bankName: 'B'.repeat(65) });
    expect(longName.body).toMatchObject({ msg: 'hint_paramTooLong', params: ['Bank name', 64] });

    const unknown = await addCard(user.token, { ...CARD, favouriteColour: 'blue' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({
      msg: 'hint_bankFieldUnknown',
      params: ['favouriteColour'],
    });

    const notText = await call(t.app, 'POST', '/api/userBank/addUserBankCard', {
      token: user.token,
      json: { ...CARD, cardNumber: 6222021234567890 },
    });
    expect(notText.body).toMatchObject({ msg: 'hint_paramInvalid', params: ['Account number'] });

    expect((await listCards(user.token)).body.total).toBe(0);
  });

  it('refuses a card bound twice and more cards than the limit', async () => {
    const user = await registerUser(t.app);
    expect((await addCard(user.token)).status).toBe(200);
    const twice = await addCard(user.token, { ...CARD, cardNumber: '6222021234567890' });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ code: 500, msg: 'hint_bankCardExists' });

    // Another user may bind the same number (a joint account).
    const other = await registerUser(t.app);
    expect((await addCard(other.token)).status).toBe(200);

    for (let index = 1; index < MAX_BANK_CARDS; index += 1) {
      const added = await addCard(user.token, { ...CARD, cardNumber: `9000000000${index}` });
      expect(added.status).toBe(200);
    }
    const tooMany = await addCard(user.token, { ...CARD, cardNumber: '80000000001' });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body).toMatchObject({ msg: 'hint_tooManyBankCards', params: [MAX_BANK_CARDS] });
    expect((await listCards(user.token)).body.total).toBe(MAX_BANK_CARDS);
  });

  it('keeps the limit and refuses duplicates when requests arrive together', async () => {
    const user = await registerUser(t.app);
    for (let index = 0; index < MAX_BANK_CARDS - 2; index += 1) {
      expect(
        (await addCard(user.token, { ...CARD, cardNumber: `7000000000${index}` })).status,
      ).toBe(200);
    }
    const together = await Promise.all(
      [1, 2, 3, 4, 5].map((index) =>
        addCard(user.token, { ...CARD, cardNumber: `6000000000${index}` }),
      ),
    );
    const statuses = together.map((result) => result.status).sort();
    expect(statuses).toEqual([200, 200, 422, 422, 422]);
    expect((await listCards(user.token)).body.total).toBe(MAX_BANK_CARDS);

    const other = await registerUser(t.app);
    const same = await Promise.all([1, 2, 3].map(() => addCard(other.token)));
    expect(same.map((result) => result.status).sort()).toEqual([200, 409, 409]);
    expect((await listCards(other.token)).body.total).toBe(1);
  });

  it('edits a card: fields left out stay, a field sent empty is cleared, the number may change', async () => {
    const user = await registerUser(t.app);
    const card = (await addCard(user.token, { ...CARD, branchName: 'Old Street' })).body.data;

    const edited = await call(t.app, 'POST', '/api/userBank/updateUserBankCard', {
      token: user.token,
      form: { id: String(card.id), bankName: 'Second Bank', branchName: '' },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({
      id: card.id,
      bankName: 'Second Bank',
      accountName: 'Ada Lovelace',
      cardNumber: '6222********7890',
      createTime: card.createTime,
    });
    expect(edited.body.data.properties.branchName).toBe('');

    const renumbered = await call(t.app, 'POST', '/api/userBank/updateUserBankCard', {
      token: user.token,
      json: { id: card.id, cardNumber: '4000 1234 5678 9010' },
    });
    expect(renumbered.body.data.cardNumber).toBe('4000********9010');
    expect((await listCards(user.token)).body.rows).toEqual([renumbered.body.data]);

    const clearedRequired = await call(t.app, 'POST', '/api/userBank/updateUserBankCard', {
      token: user.token,
      form: { id: String(card.id), accountName: ' ' },
    });
    expect(clearedRequired.body).toMatchObject({
      msg: 'hint_paramRequired',
      params: ['Account holder'],
    });

    const second = (await addCard(user.token)).body.data;
    const clash = await call(t.app, 'POST', '/api/userBank/updateUserBankCard', {
      token: user.token,
      form: { id: String(second.id), cardNumber: '4000123456789010' },
    });
    expect(clash.status).toBe(409);
    expect(clash.body.msg).toBe('hint_bankCardExists');

    // Saving a card with its own number is no clash.
    const same = await call(t.app, 'POST', '/api/userBank/updateUserBankCard', {
      token: user.token,
      form: { id: String(second.id), cardNumber: '6222021234567890', accountName: 'A L' },
    });
    expect(same.status).toBe(200);

    const noId = await call(t.app, 'POST', '/api/userBank/updateUserBankCard', {
      token: user.token,
      form: { bankName: 'X' },
    });
    expect(noId.status).toBe(400);
    expect(noId.body).toMatchObject({ msg: 'hint_paramRequired', params: ['id'] });
  });

  it("never shows, edits or deletes another user's card", async () => {
    const owner = await registerUser(t.app);
    const card = (await addCard(owner.token)).body.data;
    const stranger = await registerUser(t.app);

    expect((await listCards(stranger.token)).body).toMatchObject({ rows: [], total: 0 });
    const edit = await call(t.app, 'POST', '/api/userBank/updateUserBankCard', {
      token: stranger.token,
      form: { id: String(card.id), bankName: 'Stolen' },
    });
    expect(edit.status).toBe(404);
    expect(edit.body).toMatchObject({ code: 500, msg: 'hint_bankCardNotFound' });
    const remove = await call(t.app, 'POST', '/api/userBank/userDeleteBankCard', {
      token: stranger.token,
      form: { id: String(card.id) },
    });
    expect(remove.status).toBe(404);
    expect(remove.body.msg).toBe('hint_bankCardNotFound');

    expect((await listCards(owner.token)).body.rows).toEqual([card]);
  });

  it('deletes a card (kept, marked), refuses a second delete and binds the number again', async () => {
    const user = await registerUser(t.app);
    const card = (await addCard(user.token)).body.data;
    const removed = await call(t.app, 'POST', '/api/userBank/userDeleteBankCard', {
      token: user.token,
      form: { id: String(card.id) },
    });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ code: 200, msg: 'hint_success' });
    expect((await listCards(user.token)).body).toMatchObject({ rows: [], total: 0 });

    const again = await call(t.app, 'POST', '/api/userBank/userDeleteBankCard', {
      token: user.token,
      json: { id: card.id },
    });
    expect(again.status).toBe(404);
    expect(again.body.msg).toBe('hint_bankCardNotFound');
    const editDeleted = await call(t.app, 'POST', '/api/userBank/updateUserBankCard', {
      token: user.token,
      form: { id: String(card.id), bankName: 'X' },
    });
    expect(editDeleted.status).toBe(404);

    const kept = await t.db.query<{ deleted_at: Date | null }>(
      'SELECT deleted_at FROM user_bank WHERE id = $1',
      [card.id],
    );
    expect(kept.rows[0]!.deleted_at).toEqual(t.clock.now());

    const readded = await addCard(user.token);
    expect(readded.status).toBe(200);
    expect(readded.body.data.id).not.toBe(card.id);
    expect((await listCards(user.token)).body.total).toBe(1);

    const missing = await call(t.app, 'POST', '/api/userBank/userDeleteBankCard', {
      token: user.token,
      form: {},
    });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ msg: 'hint_paramRequired', params: ['id'] });
  });

  it('shows the same cards to the live and the demo session of a user', async () => {
    const user = await registerUser(t.app);
    await addCard(user.token);
    const demo = await call(t.app, 'GET', '/api/userInfo/changeLoginModel', {
      token: user.token,
      query: { accountType: '2' },
    });
    expect(demo.body.data.accountType).toBe(2);
    expect((await listCards(user.token)).body.total).toBe(1);
    expect((await addCard(user.token, { ...CARD, cardNumber: '5555666677778888' })).status).toBe(
      200,
    );
    expect((await listCards(user.token)).body.total).toBe(2);
  });
});

describe('wallet addresses', () => {
  it('needs a signed-in user for every call', async () => {
    for (const [method, url] of [
      ['GET', '/api/userWalletAddress/list'],
      ['POST', '/api/userWalletAddress/addUserWalletAddress'],
      ['POST', '/api/userWalletAddress/modifyUserWalletAddress'],
      ['POST', '/api/userWalletAddress/deleteUserWalletAddress'],
    ] as const) {
      const result = await call(t.app, method, url);
      expect(result.status).toBe(401);
    }
  });

  it('binds addresses on the networks of their currency, masked, and lists them by currency', async () => {
    const user = await registerUser(t.app);
    expect((await listAddresses(user.token)).body).toMatchObject({ code: 200, rows: [], total: 0 });

    const usdt = await addAddress(user.token, {
      currencyId: '3',
      network: 'TRC20',
      address: TRC20,
      remark: ' My exchange ',
    });
    expect(usdt.status).toBe(200);
    expect(usdt.body.data).toMatchObject({
      currencyId: 3,
      currencyName: 'USDT',
      network: 'TRC20',
      address: `${TRC20.slice(0, 8)}${'*'.repeat(TRC20.length - 8)}`,
      remark: 'My exchange',
    });
    expect(new Date(usdt.body.data.createTime).toISOString()).toBe(usdt.body.data.createTime);

    // The network may be named in any case; it is stored as the currency names it.
    const eth = await call(t.app, 'POST', '/api/userWalletAddress/addUserWalletAddress', {
      token: user.token,
      json: { currencyId: 5, network: 'erc20', address: ERC20 },
    });
    expect(eth.status).toBe(200);
    expect(eth.body.data).toMatchObject({ currencyName: 'ETH', network: 'ERC20', remark: null });

    const btc = await addAddress(user.token, { currencyId: '4', network: 'BTC', address: BTC });
    expect(btc.status).toBe(200);

    const all = await listAddresses(user.token);
    expect(all.body.total).toBe(3);
    expect(all.body.rows!.map((row) => row.currencyName).sort()).toEqual(['BTC', 'ETH', 'USDT']);
    expect(JSON.stringify(all.body)).not.toContain(TRC20);
    expect(JSON.stringify(all.body)).not.toContain(ERC20);

    const onlyUsdt = await listAddresses(user.token, { currencyId: '3' });
    expect(onlyUsdt.body.rows).toEqual([usdt.body.data]);
    expect(onlyUsdt.body.total).toBe(1);

    const stored = await t.db.query<{ address: string }>(
      'SELECT address FROM user_wallet_address WHERE id = $1',
      [usdt.body.data.id],
    );
    expect(stored.rows[0]!.address).toBe(TRC20);
  });

  it('shows whole addresses when the masking switch is off', async () => {
    const user = await registerUser(t.app);
    await setSwitch(SWITCH.maskWalletAddress, 0);
    const added = await addAddress(user.token, {
      currencyId: '5',
      network: 'ERC20',
      address: ERC20,
    });
    expect(added.body.data.address).toBe(ERC20);
    expect((await listAddresses(user.token)).body.rows![0].address).toBe(ERC20);
    await setSwitch(SWITCH.maskWalletAddress, 1);
    expect((await listAddresses(user.token)).body.rows![0].address).toBe(
      `${ERC20.slice(0, 8)}${'*'.repeat(34)}`,
    );
  });

  it('refuses unknown currencies, fiat currencies, networks not offered and wrong formats', async () => {
    const user = await registerUser(t.app);
    const unknown = await addAddress(user.token, {
      currencyId: '999',
      network: 'ERC20',
      address: ERC20,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 500, msg: 'hint_currencyUnknown' });

    const fiat = await addAddress(user.token, {
      currencyId: '1',
      network: 'ERC20',
      address: ERC20,
    });
    expect(fiat.status).toBe(422);
    expect(fiat.body).toMatchObject({ msg: 'hint_currencyNoNetwork', params: ['USD'] });

    const network = await addAddress(user.token, {
      currencyId: '4',
      network: 'ERC20',
      address: ERC20,
    });
    expect(network.status).toBe(422);
    expect(network.body).toMatchObject({
      msg: 'hint_networkNotOffered',
      params: ['ERC20', 'BTC', 'BTC'],
    });
    expect(network.body.text).toBe('BTC is not offered on the ERC20 network. Choose one of: BTC');

    // A TRON address on Ethereum's network, and a truncated one.
    for (const address of [TRC20, ERC20.slice(0, -1)]) {
      const format = await addAddress(user.token, { currencyId: '3', network: 'ERC20', address });
      expect(format.status).toBe(400);
      expect(format.body).toMatchObject({ msg: 'hint_walletAddressInvalid', params: ['ERC20'] });
    }

    const missing = await addAddress(user.token, { currencyId: '3', network: 'ERC20' });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ msg: 'hint_paramRequired', params: ['address'] });

    const longRemark = await addAddress(user.token, {
      currencyId: '3',
      network: 'ERC20',
      address: ERC20,
      remark: 'r'.repeat(65),
    });
    expect(longRemark.body).toMatchObject({ msg: 'hint_paramTooLong', params: ['remark', 64] });

    expect((await listAddresses(user.token)).body.total).toBe(0);
  });

  it('refuses an address bound twice on the same currency and network, and more than the limit', async () => {
    const user = await registerUser(t.app);
    expect(
      (await addAddress(user.token, { currencyId: '3', network: 'ERC20', address: ERC20 })).status,
    ).toBe(200);
    const twice = await addAddress(user.token, {
      currencyId: '3',
      network: 'ERC20',
      address: ERC20,
      remark: 'again',
    });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ code: 500, msg: 'hint_walletAddressExists' });

    // The same address for another currency or network is another entry.
    expect(
      (await addAddress(user.token, { currencyId: '3', network: 'BEP20', address: ERC20 })).status,
    ).toBe(200);
    expect(
      (await addAddress(user.token, { currencyId: '6', network: 'ERC20', address: ERC20 })).status,
    ).toBe(200);

    const hex = (index: number) => `0x${index.toString(16).padStart(40, '0')}`;
    for (let index = 3; index < MAX_WALLET_ADDRESSES; index += 1) {
      const added = await addAddress(user.token, {
        currencyId: '5',
        network: 'ERC20',
        address: hex(index),
      });
      expect(added.status).toBe(200);
    }
    const tooMany = await addAddress(user.token, {
      currencyId: '5',
      network: 'ERC20',
      address: hex(999),
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body).toMatchObject({
      msg: 'hint_tooManyWalletAddresses',
      params: [MAX_WALLET_ADDRESSES],
    });
    expect((await listAddresses(user.token)).body.total).toBe(MAX_WALLET_ADDRESSES);
  });

  it('modifies an address with the same checks', async () => {
    const user = await registerUser(t.app);
    const first = (
      await addAddress(user.token, { currencyId: '3', network: 'ERC20', address: ERC20 })
    ).body.data;
    const second = (
      await addAddress(user.token, { currencyId: '3', network: 'ERC20', address: ERC20_B })
    ).body.data;

    const modified = await call(t.app, 'POST', '/api/userWalletAddress/modifyUserWalletAddress', {
      token: user.token,
      form: {
        id: String(first.id),
        currencyId: '3',
        network: 'TRC20',
        address: TRC20,
        remark: 'Moved to TRON',
      },
    });
    expect(modified.status).toBe(200);
    expect(modified.body.data).toMatchObject({
      id: first.id,
      network: 'TRC20',
      remark: 'Moved to TRON',
      createTime: first.createTime,
    });

    const clash = await call(t.app, 'POST', '/api/userWalletAddress/modifyUserWalletAddress', {
      token: user.token,
      form: { id: String(first.id), currencyId: '3', network: 'ERC20', address: ERC20_B },
    });
    expect(clash.status).toBe(409);
    expect(clash.body.msg).toBe('hint_walletAddressExists');

    // Keeping its own address (only the remark changes) is no clash.
    const remark = await call(t.app, 'POST', '/api/userWalletAddress/modifyUserWalletAddress', {
      token: user.token,
      json: { id: second.id, currencyId: 3, network: 'ERC20', address: ERC20_B, remark: 'Cold' },
    });
    expect(remark.status).toBe(200);
    expect(remark.body.data.remark).toBe('Cold');

    const format = await call(t.app, 'POST', '/api/userWalletAddress/modifyUserWalletAddress', {
      token: user.token,
      form: { id: String(second.id), currencyId: '3', network: 'TRC20', address: ERC20_B },
    });
    expect(format.body).toMatchObject({ msg: 'hint_walletAddressInvalid', params: ['TRC20'] });

    const fiat = await call(t.app, 'POST', '/api/userWalletAddress/modifyUserWalletAddress', {
      token: user.token,
      form: { id: String(second.id), currencyId: '2', network: 'ERC20', address: ERC20_B },
    });
    expect(fiat.body).toMatchObject({ msg: 'hint_currencyNoNetwork', params: ['EUR'] });

    const list = await listAddresses(user.token, { currencyId: '3' });
    expect(list.body.rows!.map((row) => [row.id, row.network, row.remark])).toEqual([
      [second.id, 'ERC20', 'Cold'],
      [first.id, 'TRC20', 'Moved to TRON'],
    ]);
  });

  it("never shows, modifies or deletes another user's address", async () => {
    const owner = await registerUser(t.app);
    const address = (
      await addAddress(owner.token, { currencyId: '5', network: 'ERC20', address: ERC20 })
    ).body.data;
    const stranger = await registerUser(t.app);

    expect((await listAddresses(stranger.token)).body).toMatchObject({ rows: [], total: 0 });
    const modify = await call(t.app, 'POST', '/api/userWalletAddress/modifyUserWalletAddress', {
      token: stranger.token,
      form: { id: String(address.id), currencyId: '5', network: 'ERC20', address: ERC20_B },
    });
    expect(modify.status).toBe(404);
    expect(modify.body).toMatchObject({ code: 500, msg: 'hint_walletAddressNotFound' });
    const remove = await call(t.app, 'POST', '/api/userWalletAddress/deleteUserWalletAddress', {
      token: stranger.token,
      form: { id: String(address.id) },
    });
    expect(remove.status).toBe(404);
    expect(remove.body.msg).toBe('hint_walletAddressNotFound');

    expect((await listAddresses(owner.token)).body.rows).toEqual([address]);
  });

  it('deletes an address (kept, marked), refuses a second delete and binds it again', async () => {
    const user = await registerUser(t.app);
    const address = (
      await addAddress(user.token, {
        currencyId: '8',
        network: 'SOL',
        address: 'So11111111111111111111111111111111111111112',
      })
    ).body.data;
    expect(address.network).toBe('SOL');

    const removed = await call(t.app, 'POST', '/api/userWalletAddress/deleteUserWalletAddress', {
      token: user.token,
      form: { id: String(address.id) },
    });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ code: 200, msg: 'hint_success' });
    expect((await listAddresses(user.token)).body.total).toBe(0);

    const again = await call(t.app, 'POST', '/api/userWalletAddress/deleteUserWalletAddress', {
      token: user.token,
      json: { id: address.id },
    });
    expect(again.status).toBe(404);
    expect(again.body.msg).toBe('hint_walletAddressNotFound');
    const modifyDeleted = await call(
      t.app,
      'POST',
      '/api/userWalletAddress/modifyUserWalletAddress',
      {
        token: user.token,
        form: {
          id: String(address.id),
          currencyId: '8',
          network: 'SOL',
          address: 'So11111111111111111111111111111111111111112',
        },
      },
    );
    expect(modifyDeleted.status).toBe(404);

    const kept = await t.db.query<{ deleted_at: Date | null }>(
      'SELECT deleted_at FROM user_wallet_address WHERE id = $1',
      [address.id],
    );
    expect(kept.rows[0]!.deleted_at).toEqual(t.clock.now());

    const readded = await addAddress(user.token, {
      currencyId: '8',
      network: 'SOL',
      address: 'So11111111111111111111111111111111111111112',
    });
    expect(readded.status).toBe(200);
    expect(readded.body.data.id).not.toBe(address.id);
    expect((await listAddresses(user.token)).body.total).toBe(1);
  });

  it('refuses an invalid currency filter', async () => {
    const user = await registerUser(t.app);
    const result = await listAddresses(user.token, { currencyId: 'abc' });
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ msg: 'hint_paramInvalid', params: ['currencyId'] });
  });
});
