/** The avatar and demo-reset calls of /api/userInfo (issue 19). */
import { accountApi as routes } from '@bourse/shared';
import { api } from '../../api';
import { baseUrl } from '../../lib/lines';

/** Sends the cropped avatar (a JPEG data URL); answers the user with the new avatar's URL. */
export function modifyAvatar(image: string) {
  return api.call(routes.modifyAvatar, { image }, { catchError: true });
}

export function resetDemo(requestId: string) {
  return api.call(routes.resetDemo, { requestId }, { catchError: true });
}

/**
 * Where the browser loads an avatar from: the server answers the path of its avatar call
 * (`accountApi.avatar`), which lives on the API line in use, not necessarily on the app's own
 * origin.
 */
export function avatarSource(avatar: string): string {
  return avatar.startsWith('/') ? `${baseUrl()}${avatar}` : avatar;
}
