/**
 * Trading sessions (PRODUCT section 4), in New York time whatever the server's zone:
 * - US stocks: 09:30–16:00 America/New_York, Monday to Friday;
 * - forex and futures: closed from Friday 17:00 to Sunday 17:00 America/New_York;
 * - crypto: always open.
 * Exchange holidays are not modelled: the simulated feed trades on them (documented in the glossary).
 */
import type { SessionKind } from './types';

const NEW_YORK = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/New_York',
  weekday: 'short',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

let cachedMinute = Number.NaN;
let cachedClock = { weekday: 0, minute: 0 };

/** Day of week (0 Sunday) and minute of day in New York at an instant. */
export function newYorkClock(time: number): { weekday: number; minute: number } {
  // Every product asks about the same minute in turn: remember the last answer.
  const minuteKey = Math.floor(time / 60_000);
  if (minuteKey === cachedMinute) return cachedClock;
  let weekday = 0;
  let hour = 0;
  let minute = 0;
  for (const part of NEW_YORK.formatToParts(time)) {
    if (part.type === 'weekday') weekday = WEEKDAYS.indexOf(part.value);
    else if (part.type === 'hour') hour = Number(part.value);
    else if (part.type === 'minute') minute = Number(part.value);
  }
  cachedMinute = minuteKey;
  cachedClock = { weekday, minute: hour * 60 + minute };
  return cachedClock;
}

const US_OPEN = 9 * 60 + 30;
const US_CLOSE = 16 * 60;
const FX_TURN = 17 * 60;

export function isSessionOpen(session: SessionKind, time: number): boolean {
  if (session === 'crypto') return true;
  const { weekday, minute } = newYorkClock(time);
  if (session === 'usStock') {
    return weekday >= 1 && weekday <= 5 && minute >= US_OPEN && minute < US_CLOSE;
  }
  // forex and futures
  if (weekday === 6) return false;
  if (weekday === 5) return minute < FX_TURN;
  if (weekday === 0) return minute >= FX_TURN;
  return true;
}
