/**
 * The console's settings calls (/admin-api) beyond the trading settings of operators.ts: the
 * platform's currencies (finance), switches, `otherValue` and the layouts (admin), the API lines (admin,
 * read-only: the environment sets them), and the preview of a withdrawal channel's save (finance:
 * what applies at once, what after the notice, and when). Every save is audited with its before
 * and after; none sets a price, a balance or an outcome (PRODUCT section 1).
 */
import {
  apiLinesConfig,
  currencyConfig,
  currencyListQuery,
  currencySaveBody,
  layoutConfig,
  layoutSaveBody,
  otherValueConfig,
  otherValueSaveBody,
  switchConfig,
  switchSaveBody,
  withdrawChannelPreview,
} from '../schemas/console-settings';
import { withdrawChannelSaveBody } from '../schemas/operators';
import { ROUTE_ROLES, route } from './route';

const { ADMIN, FINANCE } = ROUTE_ROLES;

export const consoleSettingsApi = {
  currencies: route({
    method: 'GET',
    path: '/admin-api/currencies',
    auth: 'operator',
    roles: FINANCE,
    summary: "The platform's currencies, hidden ones included, in sort order, each marked in use.",
    query: currencyListQuery,
    rows: currencyConfig,
  }),
  saveCurrency: route({
    method: 'POST',
    path: '/admin-api/currencies/save',
    auth: 'operator',
    roles: FINANCE,
    summary:
      'Creates (no id) or changes a currency; one in use keeps its code, kind, decimals and visibility.',
    body: currencySaveBody,
    encoding: 'json',
    data: currencyConfig,
    hints: ['hint_currencyUnknown', 'hint_currencyInUse', 'hint_currencyNameTaken'],
  }),
  switches: route({
    method: 'GET',
    path: '/admin-api/switches',
    auth: 'operator',
    roles: ADMIN,
    summary: 'Every switch of the app with its status and what it does.',
    rows: switchConfig,
  }),
  saveSwitch: route({
    method: 'POST',
    path: '/admin-api/switches/save',
    auth: 'operator',
    roles: ADMIN,
    summary: 'Turns a switch on (1) or off (0).',
    body: switchSaveBody,
    encoding: 'json',
    data: switchConfig,
  }),
  otherValue: route({
    method: 'GET',
    path: '/admin-api/otherValue',
    auth: 'operator',
    roles: ADMIN,
    summary: 'The `otherValue` settings the app reads at launch, with their defaults.',
    data: otherValueConfig,
  }),
  saveOtherValue: route({
    method: 'POST',
    path: '/admin-api/otherValue/save',
    auth: 'operator',
    roles: ADMIN,
    summary: 'Changes some or all of the `otherValue` settings.',
    body: otherValueSaveBody,
    encoding: 'json',
    data: otherValueConfig,
    hints: ['hint_currencyUnknown'],
  }),
  layout: route({
    method: 'GET',
    path: '/admin-api/layout',
    auth: 'operator',
    roles: ADMIN,
    summary: 'The home and user-centre layouts the app opens from its tab bar (white-label).',
    data: layoutConfig,
  }),
  saveLayout: route({
    method: 'POST',
    path: '/admin-api/layout/save',
    auth: 'operator',
    roles: ADMIN,
    summary:
      'Chooses the home and/or user-centre layout; every layout keeps its own route, whichever is chosen.',
    body: layoutSaveBody,
    encoding: 'json',
    data: layoutConfig,
  }),
  apiLines: route({
    method: 'GET',
    path: '/admin-api/apiLines',
    auth: 'operator',
    roles: ADMIN,
    summary: 'The API lines offered to the app: set by the API_LINES environment variable.',
    data: apiLinesConfig,
  }),
  previewWithdrawChannel: route({
    method: 'POST',
    path: '/admin-api/channels/withdraw/preview',
    auth: 'operator',
    roles: FINANCE,
    summary:
      'What a save of a withdrawal channel would do, saving nothing: the terms changed at once and those announced for after the notice, with the time they apply.',
    body: withdrawChannelSaveBody,
    encoding: 'json',
    data: withdrawChannelPreview,
    hints: [
      'hint_currencyUnknown',
      'hint_channelNotFound',
      'hint_withdrawChannelCurrency',
      'hint_amount_scale',
    ],
  }),
};
