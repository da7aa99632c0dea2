/** Bank cards (/api/userBank) and wallet addresses (/api/userWalletAddress) of the signed-in user. */
import { z } from 'zod';
import { optionalInt } from '../schemas/common';
import {
  bankCard,
  bankCardBody,
  idBody,
  modifyWalletAddressBody,
  walletAddress,
  walletAddressBody,
} from '../schemas/wallet';
import { setWithdrawWhitelistBody, withdrawWhitelist } from '../schemas/profile';
import { TWO_FACTOR_CODE_HINTS } from '../schemas/security';
import { route } from './route';

const bankCardHints = [
  'hint_bankFieldUnknown',
  'hint_bankFieldDigits',
  'hint_bankCardNumberInvalid',
  'hint_bankCardExists',
] as const;
const walletAddressHints = [
  'hint_currencyUnknown',
  'hint_currencyNoNetwork',
  'hint_networkNotOffered',
  'hint_walletAddressInvalid',
  'hint_walletAddressExists',
] as const;

export const paymentMethodsApi = {
  bankCards: route({
    method: 'GET',
    path: '/api/userBank/list',
    auth: 'user',
    summary: "The user's bank cards, newest first.",
    rows: bankCard,
  }),
  addBankCard: route({
    method: 'POST',
    path: '/api/userBank/addUserBankCard',
    auth: 'user',
    summary: 'Adds a bank card from the configured fields (bankPropertyConfig).',
    body: bankCardBody,
    data: bankCard,
    hints: [...bankCardHints, 'hint_tooManyBankCards'],
  }),
  updateBankCard: route({
    method: 'POST',
    path: '/api/userBank/updateUserBankCard',
    auth: 'user',
    summary: 'Changes the fields of a bank card (`id` names it).',
    body: bankCardBody,
    data: bankCard,
    hints: [...bankCardHints, 'hint_bankCardNotFound'],
  }),
  deleteBankCard: route({
    method: 'POST',
    path: '/api/userBank/userDeleteBankCard',
    auth: 'user',
    summary: 'Deletes a bank card.',
    body: idBody,
    hints: ['hint_bankCardNotFound'],
  }),
  walletAddresses: route({
    method: 'GET',
    path: '/api/userWalletAddress/list',
    auth: 'user',
    summary: "The user's withdrawal addresses, of one currency when `currencyId` is given.",
    query: z.object({ currencyId: optionalInt(1, 1_000_000) }),
    rows: walletAddress,
  }),
  addWalletAddress: route({
    method: 'POST',
    path: '/api/userWalletAddress/addUserWalletAddress',
    auth: 'user',
    summary: 'Adds a withdrawal address on a network the currency offers.',
    body: walletAddressBody,
    data: walletAddress,
    hints: [...walletAddressHints, 'hint_tooManyWalletAddresses'],
  }),
  modifyWalletAddress: route({
    method: 'POST',
    path: '/api/userWalletAddress/modifyUserWalletAddress',
    auth: 'user',
    summary: 'Changes a withdrawal address.',
    body: modifyWalletAddressBody,
    data: walletAddress,
    hints: [...walletAddressHints, 'hint_walletAddressNotFound'],
  }),
  withdrawWhitelist: route({
    method: 'GET',
    path: '/api/withdrawWhitelist/get',
    auth: 'user',
    summary:
      "Whether the user's withdrawals go only to whitelisted cards and addresses (those saved 24 hours ago or more; each row's `usableFrom`).",
    data: withdrawWhitelist,
  }),
  setWithdrawWhitelist: route({
    method: 'POST',
    path: '/api/withdrawWhitelist/set',
    auth: 'user',
    summary:
      'Turns the withdrawal whitelist on (at once) or off (confirmed with the login password `userPwd`, and `twoFactorCode` once two-factor is on; withdrawals are then held 24 hours).',
    body: setWithdrawWhitelistBody,
    data: withdrawWhitelist,
    hints: [
      'hint_loginPwdRequired',
      'hint_pwdWrong',
      'hint_accountLocked',
      ...TWO_FACTOR_CODE_HINTS,
    ],
  }),
  deleteWalletAddress: route({
    method: 'POST',
    path: '/api/userWalletAddress/deleteUserWalletAddress',
    auth: 'user',
    summary: 'Deletes a withdrawal address.',
    body: idBody,
    hints: ['hint_walletAddressNotFound'],
  }),
};
