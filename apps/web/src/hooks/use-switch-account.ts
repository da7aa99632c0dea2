/**
 * Switches the session between the user's live and demo accounts (`changeLoginModel`): the
 * stored user, every cached query (balances differ per book) and a toast saying which account is
 * now in use. Resolves to the new user, or undefined when the server refused (already told).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTranslation } from '../i18n/react';
import { ACCOUNT_TYPE, accountApi, type UserInfo } from '@bourse/shared';
import { api, showToast, unhandledMessage } from '../api';
import { storeUserInfo } from '../api/session';

export function useSwitchAccount(): (accountType: 0 | 2) => Promise<UserInfo | undefined> {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useCallback(
    async (accountType) => {
      let userInfo: UserInfo;
      try {
        userInfo = await api.call(
          accountApi.changeLoginModel,
          { accountType },
          { catchError: true },
        );
      } catch (error) {
        const message = unhandledMessage(error);
        if (message) showToast(message);
        return undefined;
      }
      storeUserInfo(userInfo);
      queryClient.setQueryData(['userInfo'], userInfo);
      await queryClient.invalidateQueries();
      showToast(t(accountType === ACCOUNT_TYPE.demo ? 'account_nowDemo' : 'account_nowLive'));
      return userInfo;
    },
    [queryClient, t],
  );
}
