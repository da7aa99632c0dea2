/** How the message lists show a message: its time (SEED-SPEC section 9) and its excerpt. */
import { friendlyTime, type TimeAgoKey } from '@bourse/shared';
import { translate } from '../../i18n';

/**
 * A list time: under 300 s 'just now', then minutes, hours; older than a day yyyy/MM/dd HH:mm
 * (packages/shared friendlyTime, which the shared tests pin down).
 */
export function listTime(
  iso: string,
  now: number = Date.now(),
  say: (key: TimeAgoKey, params: unknown[]) => string = translate,
): string {
  return friendlyTime(iso, say, now);
}

/** The text of a message's HTML, for its excerpt: blocks and line breaks read as spaces. */
export function plainText(html: string): string {
  const spaced = html.replace(/<br\s*\/?>|<\/(p|li|h[1-6]|div|blockquote)>/gi, '$& ');
  const text = new DOMParser().parseFromString(spaced, 'text/html').body.textContent ?? '';
  return text.replace(/\s+/g, ' ').trim();
}
