/**
 * The operator's own password change (`auth/changePassword`), checked with its schema
 * (changeOwnPasswordBody: at least 12 characters) and a repetition the console compares. The
 * server refuses a wrong current password, a common or unchanged new one on their fields; once the
 * operator has two-factor on, the change asks a code of the app or a recovery code too
 * (`twoFactorCode`, refused on its field when missing or wrong). A change ends every session of the
 * operator, this one included: the console goes back to the sign-in page, which says so.
 */
import { Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { changeOwnPasswordBody, OPERATOR_PASSWORD_MIN, operatorsApi } from '@bourse/shared';
import { api } from '../api';
import { useOperator } from '../app/operator';
import { checkWith } from '../lib/form';
import { endSession } from '../lib/session';
import { FormNotice, useCallForm } from './call-form';

const FIELDS = ['oldPassword', 'newPassword', 'twoFactorCode'] as const;

export function ChangePasswordForm({ submitLabel }: { submitLabel: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { twoFactor } = useOperator();
  const { busy, failure, formProps } = useCallForm(FIELDS, (values, form) => {
    const body = checkWith(form, changeOwnPasswordBody, values);
    if (!body) return;
    if (values.repeatPassword !== body.newPassword) {
      form.setFields([{ name: 'repeatPassword', errors: [t('password.mismatch')] }]);
      return;
    }
    return async () => {
      await api.call(operatorsApi.changePassword, body);
      // Every session of the operator ended: the guard shows the sign-in page, which says why.
      queryClient.clear();
      endSession('passwordChanged');
    };
  });

  return (
    <Form {...formProps} data-testid="change-password-form" style={{ maxWidth: 440 }}>
      <FormNotice message={failure} />
      <Form.Item name="oldPassword" label={t('password.current')}>
        <Input.Password autoComplete="current-password" data-testid="old-password" />
      </Form.Item>
      <Form.Item
        name="newPassword"
        label={t('password.new')}
        extra={t('password.rule', { count: OPERATOR_PASSWORD_MIN })}
      >
        <Input.Password autoComplete="new-password" data-testid="new-password" />
      </Form.Item>
      <Form.Item name="repeatPassword" label={t('password.repeat')}>
        <Input.Password autoComplete="new-password" data-testid="repeat-password" />
      </Form.Item>
      {twoFactor && (
        <Form.Item
          name="twoFactorCode"
          label={t('twoFactor.code')}
          extra={t('twoFactor.password.help')}
        >
          <Input
            autoComplete="one-time-code"
            maxLength={32}
            placeholder={t('twoFactor.codePlaceholder')}
            style={{ maxWidth: 220 }}
            data-testid="password-two-factor-code"
          />
        </Form.Item>
      )}
      <Button type="primary" htmlType="submit" loading={busy} data-testid="change-password-submit">
        {submitLabel}
      </Button>
    </Form>
  );
}
