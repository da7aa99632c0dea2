/** The calls of balances, valuation and account records. */
import { z } from 'zod';
import { userBalanceQuery } from '../schemas/launch';
import { balanceValuation, currencyBalance, panelData } from '../schemas/wallet';
import { route } from './route';

export const assetsApi = {
  balances: route({
    method: 'GET',
    path: '/api/userInfo/userBalance',
    auth: 'user',
    key: 'read',
    summary:
      "The balance of one currency when `currencyId` is given (an object), else every visible currency's (a list), in the session's book.",
    query: userBalanceQuery,
    data: z.union([currencyBalance, z.array(currencyBalance)]),
    hints: ['hint_currencyUnknown'],
  }),
  valuation: route({
    method: 'GET',
    path: '/api/userInfo/userBalanceConvert',
    auth: 'user',
    key: 'read',
    summary:
      "The account's value in the trade currency at market rates: total, margin and results.",
    data: balanceValuation,
  }),
  panelData: route({
    method: 'GET',
    path: '/api/userInfo/personCenterPanelData',
    auth: 'user',
    key: 'read',
    summary: "The person centre's panel: the valuation, the book and the unread messages.",
    data: panelData,
  }),
};
