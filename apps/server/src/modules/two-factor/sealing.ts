/**
 * Sealing of the two-factor secrets kept in the database: AES-256-GCM under TWO_FACTOR_KEY, so a
 * copy of the database (a backup, a replica, a leaked dump) does not hand over every user's second
 * factor. Each seal has its own random 96-bit IV; the owner (`user:<id>` or `operator:<id>`) is bound
 * in as additional data, so a sealed secret copied onto another row does not open.
 *
 * With no TWO_FACTOR_KEY the key is made once and kept in DATA_DIR/two-factor.key (mode 600), as
 * the first operator's password is, so `npm start` works with no setup. Instances sharing one
 * database must then be given the same key in TWO_FACTOR_KEY (a key only one of them holds would
 * make the others refuse every code).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { assert } from '../../lib/errors';

export const TWO_FACTOR_KEY_FILE = 'two-factor.key';
/** The form of a sealed secret: version, IV, tag and ciphertext, base64url. */
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/** The key of TWO_FACTOR_KEY's text: 64 hex characters, else base64. */
export function parseKey(text: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(text)
    ? Buffer.from(text, 'hex')
    : Buffer.from(text, 'base64');
  assert(key.length === KEY_BYTES, 'TWO_FACTOR_KEY is not 32 bytes');
  return key;
}

/**
 * The key kept in `dataDir`, made on first use. Two processes starting together agree: the file is
 * created exclusively, and the one that finds it there reads the other's.
 */
export async function keyFromDataDir(dataDir: string): Promise<Buffer> {
  const file = path.join(dataDir, TWO_FACTOR_KEY_FILE);
  const read = async () => parseKey((await readFile(file, 'utf8')).trim());
  try {
    return await read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dataDir, { recursive: true });
  try {
    await writeFile(file, `${randomBytes(KEY_BYTES).toString('hex')}\n`, {
      mode: 0o600,
      flag: 'wx',
    });
    await chmod(file, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return read();
}

export class SecretSealer {
  private key: Promise<Buffer> | undefined;

  /** `loadKey` runs on first use: an app that never sees two-factor never writes a key file. */
  constructor(private readonly loadKey: () => Promise<Buffer>) {}

  private keyNow(): Promise<Buffer> {
    this.key ??= this.loadKey().catch((error: unknown) => {
      this.key = undefined;
      throw error;
    });
    return this.key;
  }

  async seal(plain: string, owner: string): Promise<string> {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', await this.keyNow(), iv);
    cipher.setAAD(Buffer.from(owner));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  }

  /** The secret of a sealed value; throws (a broken invariant) when it does not open. */
  async open(sealed: string, owner: string): Promise<string> {
    const [version, data] = sealed.split('.', 2);
    assert(version === VERSION && data, 'two-factor secret: unknown sealing');
    const bytes = Buffer.from(data, 'base64url');
    const decipher = createDecipheriv(
      'aes-256-gcm',
      await this.keyNow(),
      bytes.subarray(0, IV_BYTES),
    );
    decipher.setAAD(Buffer.from(owner));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([
      decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  }
}

/**
 * A sealer under TWO_FACTOR_KEY, else the key kept in DATA_DIR: what other secrets the server must
 * read back are sealed with (API keys' signing secrets), each bound to its own owner label.
 */
export function secretSealer(config: { TWO_FACTOR_KEY?: string; dataDir: string }): SecretSealer {
  const { TWO_FACTOR_KEY: key, dataDir } = config;
  return new SecretSealer(async () => (key ? parseKey(key) : keyFromDataDir(dataDir)));
}
