/**
 * The operators page's dialogs, each one call checked with its schema and showing the server's
 * refusal on the field it names: a new operator (username, roles, a password chosen here or made
 * at random and shown once), a change of roles, and a password reset (chosen, or made by the
 * server and shown once). Whoever gets a password from an admin chooses their own at the next
 * sign-in: the server allows them nothing else before.
 */
import type { ReactNode } from 'react';
import { Button, Form, Input, Modal, Radio } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  OPERATOR_PASSWORD_MIN,
  operatorCreateBody,
  operatorResetPasswordBody,
  operatorsApi,
  operatorUpdateBody,
  type OperatorInfo,
} from '@bourse/shared';
import { api } from '../../api';
import { checkWith } from '../../lib/form';
import { FormNotice, useCallForm } from '../call-form';
import { generatedPassword, type ShownPassword } from './one-time-password';
import { RoleChecks } from './role-checks';

type PasswordMode = 'generate' | 'choose';

/** The roles checked; none is no value (the field's "required", as the server says it). */
const rolesOf = (values: Record<string, unknown>) =>
  (values.roles as string[] | undefined)?.length ? values.roles : undefined;

/** A change of roles names at least one (operatorUpdateBody alone would take none as no change). */
const ROLES_REQUIRED = operatorCreateBody.pick({ roles: true });

/** Generated or chosen, and the chosen one's field. */
function PasswordChoice({ mode, testId }: { mode: PasswordMode; testId: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name="mode" label={t('operators.password.label')}>
        <Radio.Group data-testid={`${testId}-mode`}>
          <Radio value="generate">{t('operators.password.generate')}</Radio>
          <Radio value="choose">{t('operators.password.choose')}</Radio>
        </Radio.Group>
      </Form.Item>
      {mode === 'choose' && (
        <Form.Item
          name="password"
          label={t('password.new')}
          extra={t('password.rule', { count: OPERATOR_PASSWORD_MIN })}
        >
          <Input.Password autoComplete="new-password" data-testid={`${testId}-password`} />
        </Form.Item>
      )}
    </>
  );
}

/**
 * A dialog of one call: its form (the server's refusal above the fields, `children`), then cancel
 * and the submit button.
 */
function FormDialog({
  open,
  title,
  width,
  onClose,
  formProps,
  initialValues,
  failure,
  testId,
  submit,
  children,
}: {
  open: boolean;
  title: string;
  width: number;
  onClose(): void;
  formProps: ReturnType<typeof useCallForm>['formProps'];
  initialValues: Record<string, unknown>;
  failure: ReturnType<typeof useCallForm>['failure'];
  /** The form's test id. */
  testId: string;
  submit: { busy: boolean; label: string; testId: string };
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal open={open} title={title} onCancel={onClose} footer={null} destroyOnHidden width={width}>
      <Form {...formProps} initialValues={initialValues} preserve={false} data-testid={testId}>
        <FormNotice message={failure} />
        {children}
        <div style={{ display: 'flex', justifyContent: 'flex-end', gap: 8, marginTop: 8 }}>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button
            type="primary"
            htmlType="submit"
            loading={submit.busy}
            data-testid={submit.testId}
          >
            {submit.label}
          </Button>
        </div>
      </Form>
    </Modal>
  );
}

const invalidateOperators = (queryClient: ReturnType<typeof useQueryClient>) =>
  queryClient.invalidateQueries({ queryKey: ['operators'] });

export function CreateOperatorDialog({
  open,
  onClose,
  onShowPassword,
}: {
  open: boolean;
  onClose(): void;
  onShowPassword(shown: ShownPassword): void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { form, busy, failure, formProps } = useCallForm(
    ['username', 'password', 'roles'],
    (values, form) => {
      const generate = values.mode === 'generate';
      const password = generate ? generatedPassword() : values.password;
      const body = checkWith(form, operatorCreateBody, {
        ...values,
        password,
        roles: rolesOf(values),
      });
      if (!body) return;
      return async () => {
        await api.call(operatorsApi.createOperator, body);
        await invalidateOperators(queryClient);
        form.resetFields();
        onClose();
        if (generate) onShowPassword({ username: body.username, password: body.password });
      };
    },
  );
  const mode = (Form.useWatch('mode', form) as PasswordMode | undefined) ?? 'generate';
  return (
    <FormDialog
      open={open}
      title={t('operators.create.title')}
      width={560}
      onClose={onClose}
      formProps={formProps}
      initialValues={{ mode: 'generate', roles: [] }}
      failure={failure}
      testId="create-operator-form"
      submit={{ busy, label: t('operators.create.submit'), testId: 'create-submit' }}
    >
      <Form.Item
        name="username"
        label={t('operators.username')}
        extra={t('operators.create.usernameRule')}
      >
        <Input autoComplete="off" data-testid="create-username" />
      </Form.Item>
      <Form.Item name="roles" label={t('operators.roles')}>
        <RoleChecks />
      </Form.Item>
      <PasswordChoice mode={mode} testId="create" />
    </FormDialog>
  );
}

export function RolesDialog({
  operator,
  onClose,
}: {
  operator: OperatorInfo | undefined;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { busy, failure, formProps } = useCallForm(['roles'], (values, form) => {
    const checked = checkWith(form, ROLES_REQUIRED, { roles: rolesOf(values) });
    if (!checked) return;
    const body = operatorUpdateBody.parse({ id: operator!.id, roles: checked.roles });
    return async () => {
      await api.call(operatorsApi.updateOperator, body);
      await invalidateOperators(queryClient);
      onClose();
    };
  });
  return (
    <FormDialog
      open={operator !== undefined}
      title={t('operators.rolesDialog.title', { username: operator?.username ?? '' })}
      width={520}
      onClose={onClose}
      formProps={formProps}
      initialValues={{ roles: operator?.roles }}
      failure={failure}
      testId="roles-form"
      submit={{ busy, label: t('operators.rolesDialog.submit'), testId: 'roles-submit' }}
    >
      <Form.Item name="roles" label={t('operators.roles')}>
        <RoleChecks />
      </Form.Item>
    </FormDialog>
  );
}

export function ResetPasswordDialog({
  operator,
  onClose,
  onShowPassword,
}: {
  operator: OperatorInfo | undefined;
  onClose(): void;
  onShowPassword(shown: ShownPassword): void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { form, busy, failure, formProps } = useCallForm(['password'], (values, form) => {
    const chosen = values.mode === 'choose' ? values.password : undefined;
    const body = checkWith(form, operatorResetPasswordBody, {
      id: operator!.id,
      password: chosen ?? '',
    });
    if (!body) return;
    if (values.mode === 'choose' && body.password === undefined) {
      checkWith(form, operatorCreateBody.pick({ password: true }), { password: '' });
      return;
    }
    return async () => {
      const result = await api.call(operatorsApi.resetOperatorPassword, body);
      await invalidateOperators(queryClient);
      onClose();
      if (result.password)
        onShowPassword({ username: result.operator.username, password: result.password });
    };
  });
  const mode = (Form.useWatch('mode', form) as PasswordMode | undefined) ?? 'generate';
  return (
    <FormDialog
      open={operator !== undefined}
      title={t('operators.reset.title', { username: operator?.username ?? '' })}
      width={520}
      onClose={onClose}
      formProps={formProps}
      initialValues={{ mode: 'generate' }}
      failure={failure}
      testId="reset-form"
      submit={{ busy, label: t('operators.reset.submit'), testId: 'reset-submit' }}
    >
      <FormNotice type="info" testId="reset-effect" message={t('operators.reset.effect')} />
      <PasswordChoice mode={mode} testId="reset" />
    </FormDialog>
  );
}
