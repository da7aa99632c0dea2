/** The user's details, with the avatar and the nickname editable. */
import { useState } from 'react';
import { Input, List } from 'antd-mobile';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/react';
import { formatDateTime } from '@bourse/shared';
import { showToast } from '../../api';
import { Field } from '../../components/field';
import { Form, SubmitButton } from '../../components/form';
import { PageHeader } from '../../components/page-header';
import { useSubmit } from '../../hooks/use-submit';
import { translate } from '../../i18n';
import { storeUserInfo } from '../../api/session';
import { modifyUserInfo } from './api';
import { RequireSignIn } from '../../components/require-sign-in';
import { useUser } from '../../hooks/use-user';
import { AvatarPicker } from './avatar-picker';

const NICKNAME = /^[\p{L}\p{M}\p{N} ._\-']+$/u;

export default function UserInfoPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user } = useUser();
  const [nickName, setNickName] = useState<string | undefined>();
  const shownNick = nickName ?? user?.nickName ?? '';
  const nickError =
    nickName === undefined
      ? undefined
      : !nickName.trim()
        ? translate('hint_paramRequired', ['nickName'])
        : NICKNAME.test(nickName.trim()) && nickName.trim().length <= 32
          ? undefined
          : t('hint_nickNameInvalid');

  const { submit, pending } = useSubmit(async () => {
    if (nickName === undefined || nickError) return;
    const updated = await modifyUserInfo(nickName.trim());
    storeUserInfo(updated);
    queryClient.setQueryData(['userInfo'], updated);
    setNickName(undefined);
    showToast(t('common_saved'));
  });

  return (
    <RequireSignIn>
      <div className="page" data-testid="user-info-page">
        <PageHeader title={t('page_userInfo')} />
        <div className="page-body stack">
          {user && <AvatarPicker user={user} />}
          <List mode="card" style={{ margin: 0 }}>
            <List.Item extra={user?.userAccount}>{t('field_userAccount')}</List.Item>
            <List.Item extra={user?.id}>{t('account_userId')}</List.Item>
            <List.Item extra={user?.inviteCode}>{t('field_inviteCode')}</List.Item>
            <List.Item extra={user?.createTime ? formatDateTime(user.createTime) : '- -'}>
              {t('account_createdAt')}
            </List.Item>
            <List.Item extra={user?.lastLoginTime ? formatDateTime(user.lastLoginTime) : '- -'}>
              {t('account_lastLogin')}
            </List.Item>
          </List>
          <Form onSubmit={submit} className="stack">
            <Field label={t('field_nickName')} error={nickError} htmlFor="nick-name">
              <Input
                id="nick-name"
                value={shownNick}
                maxLength={32}
                onChange={setNickName}
                clearable
              />
            </Field>
            <SubmitButton pending={pending} disabled={nickName === undefined}>
              {t('common_save')}
            </SubmitButton>
          </Form>
        </div>
      </div>
    </RequireSignIn>
  );
}
