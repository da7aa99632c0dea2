import { describe, expect, it } from 'vitest';
import { percent } from './task-text';

describe('percent', () => {
  it('writes a rate as a percentage without a float', () => {
    expect(percent('0.01')).toBe('1%');
    expect(percent('0.025')).toBe('2.5%');
    expect(percent('1')).toBe('100%');
    expect(percent('0.00125')).toBe('0.125%');
    expect(percent('0.1')).toBe('10%');
  });
});
