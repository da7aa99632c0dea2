/**
 * New shares and new coins (issue 24): offerings (newProductApplyPurchase) with a subscription
 * window, subscriptions (userApplyPurchaseOrder) whose cost is frozen by a ledger hold, the
 * allocation computed by the published rule (../new-shares.ts) and published with its inputs and
 * seed, listing on the feed at the offer price and a lock-up of the allocated holding.
 */
import { z } from 'zod';
import {
  decimalAmount,
  intField,
  optionalInt,
  optionalText,
  pageQuery,
  requestId,
  safeString,
  text,
} from './common';
import { languageTexts } from './operators';
import { NEW_SHARE_LIMITS } from '../new-shares';
import { gte, isDecimalString } from '../money';

const productTypeField = intField(1, 2).describe('1 US stock, 2 crypto.');
const optionalProductType = optionalInt(1, 2).describe('1 US stock, 2 crypto; absent: both.');

// ---------------------------------------------------------------- the app

export const offering = z.object({
  id: z.number().int(),
  productType: z.number().int().describe('1 US stock, 2 crypto.'),
  code: z.string().describe('The code it lists under.'),
  name: z.string().describe("In the request's language (English when it has none)."),
  description: z.string(),
  currencyId: z.number().int().describe('The currency it is paid and later traded in.'),
  currency: z.string(),
  scale: z.number().int().describe("The currency's decimals."),
  price: z.string().describe('Offer price of one share or coin.'),
  lotSize: z.string().describe('Shares or coins in one lot.'),
  lotsOffered: z.string().describe('Lots offered (a whole number).'),
  quantityOffered: z.string().describe('lotsOffered × lotSize.'),
  minLots: z.string().describe('Fewest lots a subscription may ask.'),
  maxLots: z.string().describe('Most lots one user may ask.'),
  feeRate: z.string().describe("Subscription fee as a share of the amount ('0': none)."),
  subscribeStart: z.string().describe('ISO time the window opens.'),
  subscribeEnd: z.string().describe('ISO time the window closes.'),
  allocationTime: z.string().describe('ISO time the allocation runs.'),
  listingTime: z.string().describe('ISO time the product lists on its market.'),
  lockUpDays: z.number().int().describe('Days after listing before allocated shares may be sold.'),
  minAuthLevel: z.number().int().describe('Identity level needed (-1: none, 0 basic, 1 advanced).'),
  rule: z.string().describe('The allocation rule (version) published with the offering.'),
  status: z
    .number()
    .int()
    .describe(
      '0 upcoming, 1 subscribing, 2 closed and allocating, 3 allocated, 4 listed, 5 cancelled.',
    ),
  subscribers: z.number().int().describe('Open and allocated subscriptions.'),
  lotsRequested: z.string().describe('Lots asked by those subscriptions.'),
  productId: z.number().int().nullable().describe('The listed product, once listed.'),
  serverTime: z.string().describe('The server clock now, for countdowns.'),
  mySubscriptionId: z
    .number()
    .int()
    .nullable()
    .describe("The signed-in user's open or allocated subscription of it."),
});
export type Offering = z.output<typeof offering>;

export const offeringListQuery = pageQuery.extend({
  productType: optionalProductType,
  tab: z
    .preprocess(
      (value) => (value === '' || value === null ? undefined : value),
      z.enum(['upcoming', 'open', 'listed', 'all'], { error: 'hint_paramInvalid' }).optional(),
    )
    .describe(
      'upcoming, open (subscribing or waiting for allocation), listed; absent: upcoming and open.',
    ),
});

export const offeringQuery = z.object({ id: intField(1) });

export const allocationLine = z.object({
  id: z.string().describe('The opaque subscription id.'),
  lots: z.string().describe('Lots requested at close.'),
  allocated: z.string(),
});

export const offeringAllocation = z.object({
  offeringId: z.number().int(),
  code: z.string(),
  rule: z.string(),
  lotsOffered: z.string(),
  lotsRequested: z.string(),
  lotsAllocated: z.string(),
  oversubscribed: z.boolean(),
  input: z.string().describe('The canonical text whose SHA-256 is the seed.'),
  seed: z.string(),
  result: z.string().describe('`<id> <lots> <allocated>` per line, in id order.'),
  lines: z.array(allocationLine),
  allocatedAt: z.string(),
  mySubscriptionIds: z
    .array(z.string())
    .describe("The signed-in user's own lines (empty when signed out)."),
});
export type OfferingAllocation = z.output<typeof offeringAllocation>;

export const subscription = z.object({
  id: z.number().int(),
  publicId: z.string().describe('The opaque id its line carries in the published allocation.'),
  orderNo: z.string(),
  offeringId: z.number().int(),
  productType: z.number().int(),
  code: z.string(),
  name: z.string(),
  currency: z.string(),
  scale: z.number().int(),
  price: z.string(),
  lotSize: z.string(),
  lots: z.string().describe('Lots requested.'),
  frozen: z.string().describe('What the subscription froze (cost and fee of the lots asked).'),
  allocatedLots: z.string().nullable(),
  allocatedQuantity: z.string().nullable(),
  paid: z.string().nullable().describe('Cost and fee of the lots allocated.'),
  refunded: z.string().nullable().describe('What the allocation released.'),
  status: z.number().int().describe('0 open, 1 allocated, 2 refunded (no lot), 3 cancelled.'),
  offeringStatus: z.number().int(),
  listingTime: z.string(),
  lockedUntil: z.string().nullable().describe('When the allocated shares become sellable.'),
  sellable: z.boolean().describe('Listed and past the lock-up.'),
  productId: z.number().int().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
});
export type Subscription = z.output<typeof subscription>;

export const subscriptionListQuery = pageQuery.extend({ productType: optionalProductType });

const lotsField = z
  .preprocess(
    (value) => (typeof value === 'number' ? String(value) : value),
    safeString(16).regex(/^[1-9][0-9]{0,9}$/, { error: 'hint_newShareLotsInvalid' }),
  )
  .describe('Lots (a whole number).');

export const subscribeBody = z.object({
  offeringId: intField(1),
  lots: lotsField,
  requestId,
});
export type SubscribeBody = z.output<typeof subscribeBody>;

export const subscriptionChangeBody = z.object({
  id: intField(1),
  lots: lotsField,
  requestId,
});

export const subscriptionCancelBody = z.object({ id: intField(1), requestId });

// ---------------------------------------------------------------- the console

export const consoleOffering = offering
  .omit({ name: true, description: true, mySubscriptionId: true })
  .extend({
    name: z.record(z.string(), z.string()),
    description: z.record(z.string(), z.string()),
    frozen: z.string().describe('Funds frozen by open subscriptions.'),
    seed: z.string().nullable(),
    cancelReason: z.string().nullable(),
    createTime: z.string(),
    updateTime: z.string(),
  });
export type ConsoleOffering = z.output<typeof consoleOffering>;

export const consoleOfferingQuery = pageQuery.extend({
  productType: optionalProductType,
  status: optionalInt(0, 5),
});

const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);
const isoTime = safeString(64).refine((value) => !Number.isNaN(Date.parse(value)), {
  error: 'hint_timeInvalid',
});

export const offeringSaveBody = z
  .object({
    id: optionalInt(1).describe(
      'The offering to change (only before it opens); absent: a new one.',
    ),
    productType: productTypeField,
    code: safeString(16).regex(/^[A-Z0-9.]{1,16}$/, { error: 'hint_newShareCodeInvalid' }),
    name: languageTexts(NEW_SHARE_LIMITS.nameMax),
    description: languageTexts(NEW_SHARE_LIMITS.descriptionMax, 'multiLine'),
    price: decimalAmount({ maxScale: NEW_SHARE_LIMITS.priceScale }),
    lotSize: decimalAmount({ maxScale: NEW_SHARE_LIMITS.lotScale }),
    lotsOffered: lotsField,
    minLots: lotsField,
    maxLots: lotsField,
    feeRate: z.preprocess(
      (value) => emptyToUndefined(value) ?? '0',
      decimalAmount({
        sign: 'nonNegative',
        maxScale: NEW_SHARE_LIMITS.feeRateScale,
        max: NEW_SHARE_LIMITS.feeRateMax,
      }),
    ),
    subscribeStart: isoTime,
    subscribeEnd: isoTime,
    allocationTime: isoTime,
    listingTime: isoTime,
    lockUpDays: intField(0, NEW_SHARE_LIMITS.lockUpDaysMax),
    minAuthLevel: intField(-1, 1),
  })
  .superRefine((body, context) => {
    if (!body.name)
      context.addIssue({ code: 'custom', path: ['name'], message: 'hint_langEnglishRequired' });
    const lots = (value: string) => (/^[0-9]+$/.test(value) ? BigInt(value) : undefined);
    const [min, max, offered] = [lots(body.minLots), lots(body.maxLots), lots(body.lotsOffered)];
    if (min !== undefined && max !== undefined && min > max)
      context.addIssue({ code: 'custom', path: ['maxLots'], message: 'hint_newShareMaxBelowMin' });
    if (max !== undefined && offered !== undefined && max > offered)
      context.addIssue({
        code: 'custom',
        path: ['maxLots'],
        message: 'hint_newShareMaxAboveOffer',
      });
    const times = [body.subscribeStart, body.subscribeEnd, body.allocationTime, body.listingTime];
    const parsed = times.map((value) => Date.parse(value));
    if (!parsed.some(Number.isNaN)) {
      const [start, end, allocation, listing] = parsed as [number, number, number, number];
      if (end <= start)
        context.addIssue({
          code: 'custom',
          path: ['subscribeEnd'],
          message: 'hint_newShareTimesOrder',
        });
      else if (allocation < end)
        context.addIssue({
          code: 'custom',
          path: ['allocationTime'],
          message: 'hint_newShareTimesOrder',
        });
      else if (listing < allocation)
        context.addIssue({
          code: 'custom',
          path: ['listingTime'],
          message: 'hint_newShareTimesOrder',
        });
    }
    if (isDecimalString(body.price) && !gte(body.price, '0.00000001'))
      context.addIssue({ code: 'custom', path: ['price'], message: 'hint_paramInvalid' });
  });
export type OfferingSaveBody = z.output<typeof offeringSaveBody>;
export type OfferingSaveInput = z.input<typeof offeringSaveBody>;

export const offeringCancelBody = z.object({
  id: intField(1),
  reason: text(500, 1, 'multiLine'),
});

export const consoleSubscription = subscription.extend({
  userId: z.number().int(),
  userAccount: z.string(),
});
export type ConsoleSubscription = z.output<typeof consoleSubscription>;

export const consoleSubscriptionQuery = pageQuery.extend({
  offeringId: intField(1),
  status: optionalInt(0, 3),
  userAccount: optionalText(128).describe('A user: account (email or phone) or id.'),
});
