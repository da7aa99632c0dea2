/**
 * Changing the avatar on the profile page: pick a JPEG or PNG, crop it square in a sheet, and
 * send the square (drawn at 512 pixels at most); the server re-encodes what it stores.
 */
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { DotLoading, List } from 'antd-mobile';
import { useQueryClient } from '@tanstack/react-query';
import { AVATAR, type UserInfo } from '@bourse/shared';
import { showToast } from '../../api';
import { storeUserInfo } from '../../api/session';
import { BottomSheet } from '../../components/bottom-sheet';
import { useSubmit } from '../../hooks/use-submit';
import { useTranslation } from '../../i18n/react';
import { croppedAvatar, type CropArea } from './avatar-image';
import { modifyAvatar } from './profile-api';
import { UserAvatar } from './user-avatar';

const AvatarCropper = lazy(() => import('./avatar-cropper'));

/** Whether a picked file is one the server takes (some phones give camera pictures no type). */
function isJpegOrPng(file: File): boolean {
  if (file.type) return (AVATAR.mimeTypes as readonly string[]).includes(file.type);
  return /\.(jpe?g|png)$/i.test(file.name);
}

export function AvatarPicker({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [picked, setPicked] = useState<{ file: File; url: string }>();

  // The picture's object URL lives as long as its crop step.
  useEffect(() => () => picked && URL.revokeObjectURL(picked.url), [picked]);

  function pick(file: File | undefined) {
    if (input.current) input.current.value = '';
    if (!file) return;
    if (!isJpegOrPng(file)) {
      showToast(t('hint_avatarFormat'));
      return;
    }
    setPicked({ file, url: URL.createObjectURL(file) });
  }

  const { submit, pending } = useSubmit(async (area: CropArea) => {
    if (!picked) return;
    let image: string;
    try {
      image = await croppedAvatar(picked.file, area);
    } catch {
      showToast(t('avatar_unreadable'));
      return;
    }
    const updated = await modifyAvatar(image);
    storeUserInfo(updated);
    queryClient.setQueryData(['userInfo'], updated);
    setPicked(undefined);
    showToast(t('common_saved'));
  });

  return (
    <>
      <List mode="card" style={{ margin: 0 }}>
        <List.Item
          prefix={<UserAvatar user={user} testId="profile-avatar" />}
          arrow
          onClick={() => input.current?.click()}
          data-testid="avatar-change"
        >
          {t('avatar_change')}
        </List.Item>
      </List>
      <input
        ref={input}
        type="file"
        accept="image/jpeg,image/png"
        hidden
        onChange={(event) => pick(event.target.files?.[0])}
        data-testid="avatar-input"
      />
      <BottomSheet
        visible={picked !== undefined}
        onMaskClick={() => !pending && setPicked(undefined)}
        destroyOnClose
      >
        {picked && (
          <Suspense fallback={<DotLoading color="currentColor" />}>
            <AvatarCropper
              image={picked.url}
              pending={pending}
              onCancel={() => setPicked(undefined)}
              onDone={(area) => void submit(area)}
            />
          </Suspense>
        )}
      </BottomSheet>
    </>
  );
}
