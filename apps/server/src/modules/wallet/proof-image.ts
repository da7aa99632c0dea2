/**
 * Checks a payment-proof image before it is stored: base64 (bare or as a data URL), bounded in
 * bytes before it is decoded, then decoded in full and re-encoded as a JPEG by lib/images (a JPEG
 * or PNG by its own bytes, whatever the data URL claims, bounded in pixels).
 */
import { PAYMENT_PROOF } from '@bourse/shared';
import { AppError } from '../../lib/errors';
import {
  base64Image,
  ImageRefused,
  storeableImage,
  type ImageRules,
  type StoredImage,
} from '../../lib/images';

export type ProofImage = StoredImage;

/** The spec's proof: 2 MiB at most, and the long and short sides its compression keeps to. */
export const PROOF_IMAGE_RULES: ImageRules = {
  maxBytes: PAYMENT_PROOF.maxBytes,
  longSide: PAYMENT_PROOF.longSide,
  shortSide: PAYMENT_PROOF.shortSide,
};

/**
 * A proof (or another document image of the same limits: identity documents) as stored; a refused
 * image is an AppError naming `field`, its format refusal `formatKey`.
 */
export async function parseProofImage(
  input: string,
  formatKey = 'hint_proofFormat',
  field?: string,
): Promise<ProofImage> {
  // The field, when named, comes after the message's own parameters (the client finds it there).
  const named = field ? [field] : [];
  try {
    return await storeableImage(base64Image(input, PAYMENT_PROOF), PROOF_IMAGE_RULES);
  } catch (error) {
    if (!(error instanceof ImageRefused)) throw error;
    if (error.reason === 'tooLarge')
      throw new AppError('hint_proofTooLarge', 413, [
        PAYMENT_PROOF.maxBytes / 1024 / 1024,
        ...named,
      ]);
    if (error.reason === 'dimensions')
      throw new AppError('hint_proofDimensions', 422, [
        PAYMENT_PROOF.longSide,
        PAYMENT_PROOF.shortSide,
        ...named,
      ]);
    throw new AppError(formatKey, 415, named);
  }
}
