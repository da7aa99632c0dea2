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

/**
 * New York's weekday and hour by UTC hour: the zone's offset is whole hours and changes on the
 * hour, so within a UTC hour only the minutes move. Formatting a date in a zone is slow (history
 * generation asks about hundreds of thousands of instants), so each hour is formatted once.
 */
const hours = new Map<number, { weekday: number; minute: number }>();
const MAX_CACHED_HOURS = 50_000;

/** Day of week (0 Sunday) and minute of day in New York at an instant. */
export function newYorkClock(time: number): { weekday: number; minute: number } {
  const hourKey = Math.floor(time / 3_600_000);
  let start = hours.get(hourKey);
  if (!start) {
    let weekday = 0;
    let hour = 0;
    let minute = 0;
    for (const part of NEW_YORK.formatToParts(hourKey * 3_600_000)) {
      if (part.type === 'weekday') weekday = WEEKDAYS.indexOf(part.value);
      else if (part.type === 'hour') hour = Number(part.value);
      else if (part.type === 'minute') minute = Number(part.value);
    }
    start = { weekday, minute: hour * 60 + minute };
    if (hours.size >= MAX_CACHED_HOURS) hours.clear();
    hours.set(hourKey, start);
  }
  const offset = Math.floor((time - hourKey * 3_600_000) / 60_000);
  return { weekday: start.weekday, minute: start.minute + offset };
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
