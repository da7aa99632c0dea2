/**
 * Checks a payment-proof image before it is stored: base64 (bare or as a data URL), bounded in
 * bytes before it is decoded, then decoded in full and re-encoded as a JPEG by lib/images (a JPEG
 * or PNG by its own bytes, whatever the data URL claims, bounded in pixels).
 */
import { PAYMENT_PROOF } from '@bourse/shared';
import { AppError } from '../../lib/errors';
import { ImageRefused, storeableImage, type ImageRules, type StoredImage } from '../../lib/images';

export type ProofImage = StoredImage;

/** The spec's proof: 2 MiB at most, and the long and short sides its compression keeps to. */
export const PROOF_IMAGE_RULES: ImageRules = {
  maxBytes: PAYMENT_PROOF.maxBytes,
  longSide: PAYMENT_PROOF.longSide,
  shortSide: PAYMENT_PROOF.shortSide,
};

const DATA_URL = /^data:([a-z/+.-]+);base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const tooLarge = () =>
  new AppError('hint_proofTooLarge', 413, [PAYMENT_PROOF.maxBytes / 1024 / 1024]);

export async function parseProofImage(input: string): Promise<ProofImage> {
  const text = input.trim();
  const prefix = DATA_URL.exec(text);
  if (prefix && !(PAYMENT_PROOF.mimeTypes as readonly string[]).includes(prefix[1]!.toLowerCase()))
    throw new AppError('hint_proofFormat', 415);
  const base64 = (prefix ? text.slice(prefix[0].length) : text).replace(/\s+/g, '');
  if (base64.length === 0 || base64.length % 4 !== 0 || !BASE64.test(base64))
    throw new AppError('hint_proofFormat', 415);
  // The decoded size is known from the text's length: refuse before decoding anything large.
  if ((base64.length / 4) * 3 > PAYMENT_PROOF.maxBytes + 2) throw tooLarge();
  const data = Buffer.from(base64, 'base64');
  if (data.length > PAYMENT_PROOF.maxBytes) throw tooLarge();
  try {
    return await storeableImage(data, PROOF_IMAGE_RULES);
  } catch (error) {
    if (!(error instanceof ImageRefused)) throw error;
    if (error.reason === 'tooLarge') throw tooLarge();
    if (error.reason === 'dimensions')
      throw new AppError('hint_proofDimensions', 422, [
        PAYMENT_PROOF.longSide,
        PAYMENT_PROOF.shortSide,
      ]);
    throw new AppError('hint_proofFormat', 415);
  }
}
