/**
 * The withdrawal address whitelist (issue 19) on the wallet addresses screen: its switch, and
 * each address's "usable from" while it is on. Turning it on is immediate; turning it off asks
 * for the login password and holds withdrawals for 24 hours, which the user is told.
 */
import { useState } from 'react';
import { Input, Switch } from 'antd-mobile';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { formatDateTime } from '@bourse/shared';
import { showToast } from '../../api';
import { isSignedIn, refreshSignedInUser } from '../../api/session';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Field } from '../../components/field';
import { useSubmit } from '../../hooks/use-submit';
import { translate } from '../../i18n';
import { useTranslation } from '../../i18n/react';
import { QUERY_KEY, fetchWhitelist, setWhitelist } from './api';

/** Whether the user's whitelist is on (false until known). */
export function useWhitelistOn(): boolean {
  const query = useQuery({
    queryKey: QUERY_KEY.whitelist,
    queryFn: fetchWhitelist,
    enabled: isSignedIn(),
  });
  return query.data?.enabled === 1;
}

/** Under an address while the whitelist is on: from when it takes withdrawals, or that it does. */
export function UsableFrom({ usableFrom }: { usableFrom: string }) {
  const { t } = useTranslation();
  const waiting = Date.parse(usableFrom) > Date.now();
  return (
    <span
      className={waiting ? 'pm-tag pm-tag-waiting' : 'pm-tag pm-tag-ready'}
      data-testid="whitelist-usable"
    >
      {waiting
        ? translate('whitelist_usableFrom', [formatDateTime(usableFrom)])
        : t('whitelist_usable')}
    </span>
  );
}

export function WhitelistSwitch() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const enabled = useWhitelistOn();
  const [asking, setAsking] = useState(false);
  const [password, setPassword] = useState('');

  const { submit, pending } = useSubmit(async (on: boolean) => {
    if (!on && !password) return;
    const status = await setWhitelist(on, on ? undefined : password);
    queryClient.setQueryData(QUERY_KEY.whitelist, status);
    setAsking(false);
    setPassword('');
    if (on) {
      showToast(t('whitelist_on'));
      return;
    }
    // Turning it off started the withdrawal hold: the user info says until when.
    const user = await refreshSignedInUser();
    if (user) queryClient.setQueryData(['userInfo'], user);
    showToast(
      translate('whitelist_offDone', [
        user?.withdrawHoldUntil ? formatDateTime(user.withdrawHoldUntil) : '',
      ]),
    );
  });

  return (
    <section className="card stack" style={{ gap: 6 }} data-testid="whitelist">
      <div className="row">
        <strong>{t('whitelist_title')}</strong>
        <span className="spacer" />
        <Switch
          checked={enabled}
          loading={pending}
          onChange={(on) => (on ? void submit(true) : setAsking(true))}
          aria-label={t('whitelist_title')}
          data-testid="whitelist-switch"
        />
      </div>
      <span className="muted" style={{ fontSize: 13 }}>
        {t('whitelist_hint')}
      </span>
      <ConfirmDialog
        visible={asking}
        title={t('whitelist_title')}
        pending={pending}
        onClose={() => {
          setAsking(false);
          setPassword('');
        }}
        onConfirm={() => void submit(false)}
        content={
          <div className="stack">
            <span>{t('whitelist_offConfirm')}</span>
            <Field label={t('field_userPwd')} htmlFor="whitelist-password">
              <Input
                id="whitelist-password"
                type="password"
                autoComplete="current-password"
                maxLength={64}
                value={password}
                onChange={setPassword}
                data-testid="whitelist-password"
              />
            </Field>
          </div>
        }
      />
    </section>
  );
}
