// @vitest-environment node
/**
 * The settings calls of the payment methods (settingsApi): the bank-card form's fields and the
 * crypto currencies, against a real HTTP server.
 */
import { describe, expect, it } from 'vitest';
import { CURRENCY_TYPE, settingsApi } from '@bourse/shared';
import { rowsAnswer, serveAsApiLine } from '../../test/api-line';

import { fetchBankFields, fetchCryptoCurrencies } from './api';

const server = serveAsApiLine();
const rows = rowsAnswer;

const field = (id: number, propertyName: string, sort: number) => ({
  id,
  configType: 0,
  propertyName,
  labelKey: `bank_${propertyName}`,
  label: propertyName,
  isRequired: 1,
  inputType: 'text',
  maxLength: 64,
  sort,
});

describe('payment methods: settings calls', () => {
  it("asks for the bank card's fields (configType 0) and orders them by sort, then id", async () => {
    server.answer(
      settingsApi.bankFields.path,
      rows([field(3, 'swiftCode', 2), field(2, 'bankName', 1), field(1, 'cardNumber', 1)]),
    );
    const fields = await fetchBankFields();
    expect(fields.map((each) => each.propertyName)).toEqual([
      'cardNumber',
      'bankName',
      'swiftCode',
    ]);
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'GET', path: settingsApi.bankFields.path });
    expect(request!.query.get('configType')).toBe('0');
  });

  it('asks for the crypto currencies only', async () => {
    const usdt = {
      id: 3,
      currencyName: 'USDT',
      currencyType: CURRENCY_TYPE.crypto,
      walletAddressType: 'ERC20/TRC20',
      scale: 4,
      icon: '',
      sort: 3,
    };
    server.answer(settingsApi.platformCurrencies.path, rows([usdt]));
    await expect(fetchCryptoCurrencies()).resolves.toEqual([usdt]);
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'GET', path: settingsApi.platformCurrencies.path });
    expect(request!.query.get('currencyType')).toBe(String(CURRENCY_TYPE.crypto));
  });
});
