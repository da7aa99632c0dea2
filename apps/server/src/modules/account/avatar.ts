/**
 * Users' avatars (issue 19). The app crops the picture square; the server decodes it in full and
 * re-encodes it (lib/images: JPEG or PNG by its own bytes, bounded, no metadata kept), as the
 * centred square of at most AVATAR.side pixels, and keeps it in the database (user_avatar), never
 * in the web root. It is served through a call whose URL names the image's hash: app_user.avatar
 * holds that URL, so whoever has it (the user, anyone they show it to) gets that one image, and
 * caches may keep it for good; a user's id alone gets nothing.
 */
import { AVATAR, accountApi } from '@bourse/shared';
import type { Database } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { base64Image, ImageRefused, storeableImage, type ImageRules } from '../../lib/images';
import * as repo from './repo-profile';

const AVATAR_RULES: ImageRules = {
  maxBytes: AVATAR.maxBytes,
  longSide: AVATAR.longSide,
  shortSide: AVATAR.shortSide,
  square: AVATAR.side,
};

/** Where a user's avatar is served: its hash in the URL, so a new image is a new URL. */
export function avatarUrl(userId: number, sha256: string): string {
  return `${accountApi.avatar.path}?id=${userId}&v=${sha256}`;
}

export class Avatars {
  constructor(private readonly deps: { db: Database; clock: Clock }) {}

  /** Stores a user's new avatar (base64 or a data URL); its URL. */
  async set(userId: number, input: string): Promise<string> {
    let image;
    try {
      image = await storeableImage(base64Image(input, AVATAR), AVATAR_RULES);
    } catch (error) {
      if (!(error instanceof ImageRefused)) throw error;
      if (error.reason === 'tooLarge')
        throw new AppError('hint_avatarTooLarge', 413, [AVATAR.maxBytes / 1024 / 1024]);
      if (error.reason === 'dimensions')
        throw new AppError('hint_avatarDimensions', 422, [AVATAR.longSide, AVATAR.shortSide]);
      throw new AppError('hint_avatarFormat', 415, ['image']);
    }
    const url = avatarUrl(userId, image.sha256);
    await this.deps.db.transaction(async (tx) => {
      await repo.upsertAvatar(tx, userId, { ...image, at: this.deps.clock.now() });
      await repo.updateAvatarUrl(tx, userId, url);
    });
    return url;
  }

  /** The avatar the URL names: the user's current one, if its hash is `sha256`. */
  async image(userId: number, sha256: string): Promise<{ mime: string; data: Uint8Array } | null> {
    return (await repo.findAvatar(this.deps.db, userId, sha256)) ?? null;
  }
}
