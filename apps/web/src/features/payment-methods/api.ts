/** The calls of bank cards (/api/userBank) and wallet addresses (/api/userWalletAddress). */
import {
  CURRENCY_TYPE,
  MAX_BANK_CARDS,
  MAX_WALLET_ADDRESSES,
  paymentMethodsApi as routes,
  settingsApi,
  type BankCard,
  type BankField,
  type PlatformCurrency,
  type WalletAddress,
} from '@bourse/shared';
import { api } from '../../api';

export type { BankField };

/** A crypto currency (platformCurrency/list of currencyType 2) and its networks. */
export type CryptoCurrency = PlatformCurrency;

export const QUERY_KEY = {
  bankCards: ['bankCards'],
  bankFields: ['bankPropertyConfig', 0],
  walletAddresses: ['walletAddresses'],
  whitelist: ['withdrawWhitelist'],
  cryptoCurrencies: ['platformCurrency', CURRENCY_TYPE.crypto],
} as const;

/** The field that names a card; it is never shown whole once saved (the server masks it). */
export const CARD_NUMBER_FIELD = 'cardNumber';

export async function fetchBankCards(): Promise<BankCard[]> {
  return (await api.call(routes.bankCards)).rows;
}

export async function fetchBankFields(): Promise<BankField[]> {
  const { rows } = await api.call(settingsApi.bankFields, { configType: 0 });
  return [...rows].sort((a, b) => a.sort - b.sort || a.id - b.id);
}

export function addBankCard(fields: Record<string, string>) {
  return api.call(routes.addBankCard, fields, { catchError: true });
}

export function updateBankCard(id: number, fields: Record<string, string>) {
  return api.call(routes.updateBankCard, { ...fields, id: String(id) }, { catchError: true });
}

export function deleteBankCard(id: number) {
  return api.call(routes.deleteBankCard, { id }, { catchError: true });
}

export async function fetchWalletAddresses(): Promise<WalletAddress[]> {
  return (await api.call(routes.walletAddresses, {})).rows;
}

export async function fetchCryptoCurrencies(): Promise<CryptoCurrency[]> {
  const { rows } = await api.call(settingsApi.platformCurrencies, {
    currencyType: CURRENCY_TYPE.crypto,
  });
  return rows;
}

export function addWalletAddress(input: {
  currencyId: number;
  network: string;
  address: string;
  remark?: string;
}) {
  return api.call(routes.addWalletAddress, input, { catchError: true });
}

export function deleteWalletAddress(id: number) {
  return api.call(routes.deleteWalletAddress, { id }, { catchError: true });
}

export function fetchWhitelist() {
  return api.call(routes.withdrawWhitelist);
}

/** Turns the withdrawal whitelist on, or off with the login password. */
export function setWhitelist(enabled: boolean, userPwd?: string) {
  return api.call(
    routes.setWithdrawWhitelist,
    { enabled: enabled ? 1 : 0, userPwd },
    { catchError: true },
  );
}

/** How a screen lists the user's bound items of a kind, deletes one, and how many there may be. */
export interface BoundItems<Row> {
  queryKey: readonly unknown[];
  fetchRows: () => Promise<Row[]>;
  deleteRow: (id: number) => Promise<unknown>;
  max: number;
}

export const BANK_CARDS: BoundItems<BankCard> = {
  queryKey: QUERY_KEY.bankCards,
  fetchRows: fetchBankCards,
  deleteRow: deleteBankCard,
  max: MAX_BANK_CARDS,
};

export const WALLET_ADDRESSES: BoundItems<WalletAddress> = {
  queryKey: QUERY_KEY.walletAddresses,
  fetchRows: fetchWalletAddresses,
  deleteRow: deleteWalletAddress,
  max: MAX_WALLET_ADDRESSES,
};
