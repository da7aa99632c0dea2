/** The user's avatar in its round tile, or the first letter of their name until they set one. */
import type { UserInfo } from '@bourse/shared';
import { avatarSource } from './profile-api';

export function UserAvatar({ user, testId }: { user: UserInfo; testId?: string }) {
  return (
    <div className="avatar" aria-hidden="true" data-testid={testId}>
      {user.avatar ? (
        <img src={avatarSource(user.avatar)} alt="" />
      ) : (
        (user.nickName || user.userAccount).slice(0, 1).toUpperCase()
      )}
    </div>
  );
}
