/**
 * Common passwords, refused wherever a login password is chosen: a user's registration and
 * password change, and an operator's creation, reset and own change (issue 15). The spec's rules
 * (8+ characters, a letter, letters and digits only) let `password` and `aaaaaaaa` through; these
 * are the first guesses of any attacker, so they are refused on top of those rules.
 *
 * The list is zxcvbn's `passwords-common` dictionary (about 49,000 passwords, the most frequent in
 * public breach corpora, all lower-case) as shipped offline by the server dependency
 * `@zxcvbn-ts/language-common`. It is read from node_modules on first use, never at start-up and
 * never over the network, and kept in a Set; the comparison ignores case. The list lives on the
 * server only, so it never weighs on the web bundle: the app shows the server's translated refusal.
 *
 * zxcvbn leaves repeats and sequences to its own pattern matchers, so its dictionary lacks
 * `aaaaaaaa` and `abcdefgh`. Two small rules, on the whole password, cover them:
 * - one character repeated (`aaaaaaaa`, `11111111`);
 * - a straight run of the alphabet or of the digits, up or down (`abcdefgh`, `hgfedcba`,
 *   `23456789`).
 */
import { createRequire } from 'node:module';
import type { dictionary as zxcvbnDictionary } from '@zxcvbn-ts/language-common';
import { AppError } from './errors';

/** The translation key of the refusal; `params` names the field. */
export const COMMON_PASSWORD_KEY = 'hint_pwdCommon';

let common: ReadonlySet<string> | undefined;

/** The dictionary, loaded once, on the first check. */
function commonPasswords(): ReadonlySet<string> {
  if (!common) {
    const load = createRequire(import.meta.url);
    const { dictionary } = load('@zxcvbn-ts/language-common') as {
      dictionary: typeof zxcvbnDictionary;
    };
    common = new Set(dictionary['passwords-common'].map((word) => word.toLowerCase()));
  }
  return common;
}

/** One character, repeated throughout. */
function isRepeat(value: string): boolean {
  return /^(.)\1*$/s.test(value);
}

/** At least 3 letters or digits, each one after (or each one before) the previous. */
function isStraightRun(value: string): boolean {
  if (value.length < 3 || !(/^[a-z]+$/.test(value) || /^\d+$/.test(value))) return false;
  const step = value.charCodeAt(1) - value.charCodeAt(0);
  if (step !== 1 && step !== -1) return false;
  for (let i = 2; i < value.length; i++) {
    if (value.charCodeAt(i) - value.charCodeAt(i - 1) !== step) return false;
  }
  return true;
}

/** Whether the password is in the common-password list (any case) or breaks a pattern rule above. */
export function isCommonPassword(password: string): boolean {
  const value = password.toLowerCase();
  return isRepeat(value) || isStraightRun(value) || commonPasswords().has(value);
}

/** Refuses a common password like the other password rules: 400, `params` naming the field. */
export function refuseCommonPassword(password: string, field: string): void {
  if (isCommonPassword(password)) throw new AppError(COMMON_PASSWORD_KEY, 400, [field]);
}
