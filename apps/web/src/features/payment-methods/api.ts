/** The calls of bank cards (/api/userBank) and wallet addresses (/api/userWalletAddress). */
import {
  CURRENCY_TYPE,
  paymentMethodsApi as routes,
  type BankCard,
  type WalletAddress,
} from '@bourse/shared';
import { api } from '../../api';

/** A field of the bank-card form (bankPropertyConfig, configType 0). */
export interface BankField {
  id: number;
  propertyName: string;
  /** Translation key of the label. */
  labelKey: string;
  /** The server's rendering of the label, used when the app has no text for the key. */
  label: string;
  isRequired: number;
  /** 'digits' or 'text'. */
  inputType: string;
  maxLength: number;
  sort: number;
}

export interface CryptoCurrency {
  id: number;
  currencyName: string;
  /** Networks, slash-separated ("ERC20/TRC20"). */
  walletAddressType: string;
}

export const QUERY_KEY = {
  bankCards: ['bankCards'],
  bankFields: ['bankPropertyConfig', 0],
  walletAddresses: ['walletAddresses'],
  cryptoCurrencies: ['platformCurrency', CURRENCY_TYPE.crypto],
} as const;

/** The field that names a card; it is never shown whole once saved (the server masks it). */
export const CARD_NUMBER_FIELD = 'cardNumber';

export async function fetchBankCards(): Promise<BankCard[]> {
  return (await api.call(routes.bankCards)).rows;
}

export async function fetchBankFields(): Promise<BankField[]> {
  const { rows } = await api.page<BankField>('/api/bankPropertyConfig/list', { configType: 0 });
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
  const { rows } = await api.page<CryptoCurrency>('/api/platformCurrency/list', {
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
