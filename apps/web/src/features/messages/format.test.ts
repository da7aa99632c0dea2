import { describe, expect, it } from 'vitest';
import { listTime, plainText } from './format';

describe('listTime', () => {
  const now = Date.UTC(2026, 10, 27, 12, 0, 0);
  const say = (key: string, params: unknown[]) => `${key}:${params.join(',')}`;
  const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();

  it('says just now under 300 s, then minutes and hours within a day', () => {
    expect(listTime(ago(299), now, say)).toBe('time_justNow:');
    expect(listTime(ago(300), now, say)).toBe('time_minutesAgo:5');
    expect(listTime(ago(3600), now, say)).toBe('time_hoursAgo:1');
    expect(listTime(ago(86_399), now, say)).toBe('time_hoursAgo:23');
  });

  it('shows yyyy/MM/dd HH:mm once older than a day', () => {
    expect(listTime(ago(86_401), now, say)).toBe('2026/11/26 11:59');
    expect(listTime('2025-01-02T03:04:00Z', now, say)).toBe('2025/01/02 03:04');
  });
});

describe('plainText', () => {
  it('reads blocks as words apart and drops the markup', () => {
    expect(plainText('<p>From <b>22:00</b> UTC.</p><ul><li>Deposits wait</li></ul>')).toBe(
      'From 22:00 UTC. Deposits wait',
    );
    expect(plainText('<p>a<br>b</p>')).toBe('a b');
    expect(plainText('')).toBe('');
  });
});
