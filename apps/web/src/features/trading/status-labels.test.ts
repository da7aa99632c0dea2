/**
 * The labels of contract statuses and close reasons come from the shared codes' names: each code
 * has its key, and each key is in the bundled English texts.
 */
import { describe, expect, it } from 'vitest';
import en from '../../../../../packages/shared/locales/en.json';
import { CLOSE_REASON_LABEL, CONTRACT_STATUS_LABEL } from './trading-api';

describe('status labels of the positions screen', () => {
  it('names each contract status and close reason by its code', () => {
    expect(CONTRACT_STATUS_LABEL).toEqual({
      0: 'position_status_pending',
      1: 'position_status_open',
      2: 'position_status_closed',
      3: 'position_status_cancelled',
    });
    expect(CLOSE_REASON_LABEL).toEqual({
      1: 'position_reason_manual',
      2: 'position_reason_takeProfit',
      3: 'position_reason_stopLoss',
      4: 'position_reason_liquidation',
    });
    for (const key of [
      ...Object.values(CONTRACT_STATUS_LABEL),
      ...Object.values(CLOSE_REASON_LABEL),
    ])
      expect(en).toHaveProperty(key);
  });
});
