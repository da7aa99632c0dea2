/** Random tokens, codes and one-way hashes for secrets that are looked up (tokens, codes). */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** 256 random bits, URL-safe: session tokens. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A numeric code of `length` digits, uniformly random. */
export function newNumericCode(length: number): string {
  let code = '';
  for (let i = 0; i < length; i++) code += String(randomInt(10));
  return code;
}

const INVITE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** 8 characters without look-alikes (no I, O, 0, 1). */
export function newInviteCode(): string {
  let code = '';
  for (let i = 0; i < 8; i++) code += INVITE_ALPHABET[randomInt(INVITE_ALPHABET.length)];
  return code;
}

/** A readable random password for seeded logins: letters and digits, 16 characters. */
export function newPassword(): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  let password = '';
  while (!/[A-Za-z]/.test(password) || !/\d/.test(password) || password.length < 16) {
    password = '';
    for (let i = 0; i < 16; i++) password += alphabet[randomInt(alphabet.length)];
  }
  return password;
}

/** argon2id with the OWASP-recommended minimum cost (19 MiB, 2 passes). */
/** Algorithm 2 is argon2id in @node-rs/argon2's (const) enum. */
const ARGON2 = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** Verifies against a fixed hash so that a missing account costs the same time as a wrong password. */
let dummyHash: Promise<string> | undefined;
export async function spendPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword(newPassword());
  await verifyPassword(await dummyHash, password);
}
