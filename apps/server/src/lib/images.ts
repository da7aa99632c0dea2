/**
 * Uploaded images (payment proofs and avatars now; identity documents later): decoded in full
 * with sharp (libvips) before anything is stored, and stored as a fresh JPEG, never as received.
 *
 * - Only JPEG and PNG, by their own bytes and by what sharp detects (never by a data URL's claim);
 *   GIF, WebP, SVG and the rest never reach a decoder.
 * - A PNG must end with its IEND chunk and every chunk's CRC must hold: nothing is hidden after
 *   the image (libpng ignores trailing bytes and a missing IEND). Bytes after a JPEG's EOI are
 *   accepted and dropped by the re-encoding: phones put Multi-Picture and motion-photo data there.
 * - The size read from the header is bounded (long and short side) before decoding, and the
 *   decoder refuses more pixels than that (`limitInputPixels`), so a small file that would decode
 *   huge (a decompression bomb) is never decoded.
 * - `failOn: 'warning'`: a truncated or corrupt image is refused rather than decoded in part.
 * - The decoded pixels are turned upright by their EXIF orientation, flattened onto white and
 *   encoded as a JPEG without any metadata (EXIF, GPS, XMP, ICC are all dropped).
 *
 * Decoding runs in libuv's thread pool, which argon2 password hashing, file access and DNS
 * lookups share; at most `MAX_CONCURRENT_DECODES` images are processed at once, the rest wait.
 */
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import sharp, { type Metadata, type OutputInfo, type SharpOptions } from 'sharp';
import { AppError } from './errors';

/** The limits of one use of uploaded images. */
export interface ImageRules {
  /** Largest accepted upload, in bytes. */
  maxBytes: number;
  /** Largest accepted side, in pixels, whichever way the image is turned. */
  longSide: number;
  /** Largest accepted shorter side, in pixels. */
  shortSide: number;
  /** JPEG quality of the stored image (1–100, default 85). */
  quality?: number;
  /**
   * Stores the centred square of the image, scaled down to at most this side (avatars): an image
   * cropped square in the browser stays whole, any other loses the edges of its longer side.
   */
  square?: number;
}

/** Why an upload was refused; the caller turns it into its own message. */
export type ImageRefusal = 'format' | 'tooLarge' | 'dimensions';

export class ImageRefused extends Error {
  constructor(
    readonly reason: ImageRefusal,
    detail: string,
  ) {
    super(`image refused (${reason}): ${detail}`);
    this.name = 'ImageRefused';
  }
}

/** An accepted image as stored: always a JPEG, `sha256` of `data`. */
export interface StoredImage {
  mime: 'image/jpeg';
  width: number;
  height: number;
  sha256: string;
  data: Buffer;
}

/** Images processed at once: half of libuv's default pool of 4 stays free for the rest. */
export const MAX_CONCURRENT_DECODES = 2;
/**
 * libjpeg-turbo at 85 (chroma 4:2:0): a receipt's text stays sharp. Not mozjpeg: some 12 % smaller
 * files for 8 to 14 times the CPU (about 3 s instead of 0.3 s for 8 megapixels on one core).
 */
const DEFAULT_QUALITY = 85;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let running = 0;
const waiting: (() => void)[] = [];

async function limited<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT_DECODES) await new Promise<void>((go) => waiting.push(go));
  else running += 1;
  try {
    return await work();
  } finally {
    // The slot passes straight to the next in line, if any.
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

function sniff(data: Buffer): 'png' | 'jpeg' | null {
  if (data.length >= 8 && data.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  return null;
}

/** A PNG's chunks: IHDR first, each CRC right, and IEND last, ending exactly at the file's end. */
function checkPngChunks(data: Buffer): void {
  let offset = PNG_SIGNATURE.length;
  let first = true;
  while (offset + 12 <= data.length) {
    const length = data.readUInt32BE(offset);
    const type = data.toString('latin1', offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (length > 0x7fffffff || end > data.length || !/^[A-Za-z]{4}$/.test(type))
      throw new ImageRefused('format', 'broken PNG chunk');
    if (first && (type !== 'IHDR' || length !== 13))
      throw new ImageRefused('format', 'PNG without IHDR');
    if (crc32(data.subarray(offset + 4, end - 4)) !== data.readUInt32BE(end - 4))
      throw new ImageRefused('format', `bad CRC in PNG chunk ${type}`);
    if (type === 'IEND') {
      if (end !== data.length) throw new ImageRefused('format', 'data after the PNG IEND chunk');
      return;
    }
    first = false;
    offset = end;
  }
  throw new ImageRefused('format', 'PNG without IEND');
}

/** A decoder's refusal: too many pixels, or anything else wrong with the image. */
function refusal(error: unknown): ImageRefused {
  const message = error instanceof Error ? error.message : String(error);
  return new ImageRefused(/pixel limit/i.test(message) ? 'dimensions' : 'format', message);
}

function tooBig(width: number, height: number, rules: ImageRules): boolean {
  return Math.max(width, height) > rules.longSide || Math.min(width, height) > rules.shortSide;
}

const DATA_URL = /^data:([a-z/+.-]+);base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The bytes of an image sent as text: base64, bare or as a data URL (whose type must be one of
 * `mimeTypes`; the bytes are still checked for what they are). The decoded size is known from the
 * text's length, so a large upload is refused before anything is decoded.
 */
export function base64Image(
  input: string,
  accepted: { maxBytes: number; mimeTypes: readonly string[] },
): Buffer {
  const text = input.trim();
  const prefix = DATA_URL.exec(text);
  if (prefix && !accepted.mimeTypes.includes(prefix[1]!.toLowerCase()))
    throw new ImageRefused('format', `data URL of ${prefix[1]}`);
  const base64 = (prefix ? text.slice(prefix[0].length) : text).replace(/\s+/g, '');
  if (base64.length === 0 || base64.length % 4 !== 0 || !BASE64.test(base64))
    throw new ImageRefused('format', 'not base64');
  if ((base64.length / 4) * 3 > accepted.maxBytes + 2)
    throw new ImageRefused('tooLarge', `${base64.length} base64 characters`);
  const data = Buffer.from(base64, 'base64');
  if (data.length > accepted.maxBytes) throw new ImageRefused('tooLarge', `${data.length} bytes`);
  return data;
}

/**
 * Checks and re-encodes an uploaded image (its bytes, after any transport decoding). Throws
 * ImageRefused when the image is not a whole, sound JPEG or PNG within `rules`.
 */
export async function storeableImage(data: Buffer, rules: ImageRules): Promise<StoredImage> {
  if (data.length > rules.maxBytes) throw new ImageRefused('tooLarge', `${data.length} bytes`);
  const kind = sniff(data);
  if (!kind) throw new ImageRefused('format', 'neither JPEG nor PNG');
  if (kind === 'png') checkPngChunks(data);

  const options: SharpOptions = {
    failOn: 'warning',
    limitInputPixels: rules.longSide * rules.shortSide,
    autoOrient: true,
    sequentialRead: true,
  };
  return limited(async () => {
    // The header first: its format and size decide before a single pixel is decoded.
    let header: Metadata;
    try {
      header = await sharp(data, options).metadata();
    } catch (error) {
      throw refusal(error);
    }
    if (header.format !== kind) throw new ImageRefused('format', `decoded as ${header.format}`);
    if (!header.width || !header.height) throw new ImageRefused('format', 'no size');
    if (tooBig(header.width, header.height, rules))
      throw new ImageRefused('dimensions', `${header.width} x ${header.height}`);

    let output: { data: Buffer; info: OutputInfo };
    // The shorter side does not depend on the EXIF orientation: the square is the same either way.
    const side = rules.square && Math.min(rules.square, header.width, header.height);
    try {
      let image = sharp(data, options);
      if (side)
        image = image.resize({ width: side, height: side, fit: 'cover', position: 'centre' });
      output = await image
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: rules.quality ?? DEFAULT_QUALITY })
        .toBuffer({ resolveWithObject: true });
    } catch (error) {
      throw refusal(error);
    }
    const { width, height } = output.info;
    if (tooBig(width, height, rules)) throw new ImageRefused('dimensions', `${width} x ${height}`);
    if (side && (width !== side || height !== side))
      throw new Error(`images: a square of ${side} came out ${width} x ${height}`);
    return {
      mime: 'image/jpeg',
      width,
      height,
      sha256: createHash('sha256').update(output.data).digest('hex'),
      data: output.data,
    };
  });
}

/**
 * Pictures operators upload (content entries, earn products): at most 2 MiB as sent, a JPEG or a
 * PNG within 3264×2448, re-encoded before it is stored.
 */
export const OPERATOR_PICTURE = {
  maxBytes: 2 * 1024 * 1024,
  longSide: 3264,
  shortSide: 2448,
  mimeTypes: ['image/jpeg', 'image/png'],
} as const;

/** An operator's picture sent as base64, re-encoded; refused with the error the console shows. */
export async function operatorPicture(input: string): Promise<StoredImage> {
  try {
    return await storeableImage(base64Image(input, OPERATOR_PICTURE), OPERATOR_PICTURE);
  } catch (error) {
    if (!(error instanceof ImageRefused)) throw error;
    if (error.reason === 'tooLarge')
      throw new AppError('hint_proofTooLarge', 413, [OPERATOR_PICTURE.maxBytes / 1024 / 1024]);
    if (error.reason === 'dimensions')
      throw new AppError('hint_avatarDimensions', 422, [
        OPERATOR_PICTURE.longSide,
        OPERATOR_PICTURE.shortSide,
      ]);
    throw new AppError('hint_imageFormat', 415, ['image']);
  }
}
