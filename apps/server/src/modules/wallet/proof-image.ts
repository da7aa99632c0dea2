/**
 * Checks a payment-proof image before it is stored: base64 (bare or as a data URL), a JPEG or PNG
 * by its own bytes (whatever the data URL claims), bounded in bytes and in pixels.
 */
import { createHash } from 'node:crypto';
import { PAYMENT_PROOF } from '@bourse/shared';
import { AppError } from '../../lib/errors';

export interface ProofImage {
  mime: 'image/jpeg' | 'image/png';
  width: number;
  height: number;
  sha256: string;
  data: Buffer;
}

const DATA_URL = /^data:([a-z/+.-]+);base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function pngSize(data: Buffer): { width: number; height: number } | null {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (data.length < 24 || !signature.every((byte, i) => data[i] === byte)) return null;
  if (data.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

/** Walks the JPEG segments to the first start-of-frame marker, which holds the size. */
function jpegSize(data: Buffer): { width: number; height: number } | null {
  if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8) return null;
  let offset = 2;
  while (offset + 9 < data.length) {
    if (data[offset] !== 0xff) return null;
    const marker = data[offset + 1]!;
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    const length = data.readUInt16BE(offset + 2);
    if (length < 2) return null;
    const isFrame = marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);
    if (isFrame) {
      return { height: data.readUInt16BE(offset + 5), width: data.readUInt16BE(offset + 7) };
    }
    offset += 2 + length;
  }
  return null;
}

export function parseProofImage(input: string): ProofImage {
  const text = input.trim();
  const prefix = DATA_URL.exec(text);
  if (prefix && !(PAYMENT_PROOF.mimeTypes as readonly string[]).includes(prefix[1]!.toLowerCase()))
    throw new AppError('hint_proofFormat', 415);
  const base64 = (prefix ? text.slice(prefix[0].length) : text).replace(/\s+/g, '');
  if (base64.length === 0 || base64.length % 4 !== 0 || !BASE64.test(base64))
    throw new AppError('hint_proofFormat', 415);
  // The decoded size is known from the text's length: refuse before decoding anything large.
  if ((base64.length / 4) * 3 > PAYMENT_PROOF.maxBytes + 2)
    throw new AppError('hint_proofTooLarge', 413, [PAYMENT_PROOF.maxBytes / 1024 / 1024]);
  const data = Buffer.from(base64, 'base64');
  if (data.length > PAYMENT_PROOF.maxBytes)
    throw new AppError('hint_proofTooLarge', 413, [PAYMENT_PROOF.maxBytes / 1024 / 1024]);
  const png = pngSize(data);
  const jpeg = png ? null : jpegSize(data);
  const size = png ?? jpeg;
  if (!size || size.width === 0 || size.height === 0) throw new AppError('hint_proofFormat', 415);
  if (Math.max(size.width, size.height) > PAYMENT_PROOF.maxSide)
    throw new AppError('hint_proofDimensions', 422, [PAYMENT_PROOF.maxSide]);
  return {
    mime: png ? 'image/png' : 'image/jpeg',
    width: size.width,
    height: size.height,
    sha256: createHash('sha256').update(data).digest('hex'),
    data,
  };
}
