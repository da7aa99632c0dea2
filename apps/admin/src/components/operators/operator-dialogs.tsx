/**
 * The operators page's dialogs, each one call checked with its schema and showing the server's
 * refusal on the field it names: a new operator (username, roles, a password chosen here or made
 * at random and shown once), a change of roles, and a password reset (chosen, or made by the
 * server and shown once). Whoever gets a password from an admin chooses their own at the next
 * sign-in: the server allows them nothing else before.
 */
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

function DialogFooter({
  busy,
  label,
  testId,
  onCancel,
}: {
  busy: boolean;
  label: string;
  testId: string;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  return (
    <div style={{ display: 'flex', justifyContent: 'flex-end', gap: 8, marginTop: 8 }}>
      <Button onClick={onCancel}>{t('common.cancel')}</Button>
      <Button type="primary" htmlType="submit" loading={busy} data-testid={testId}>
        {label}
      </Button>
    </div>
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
    <Modal
      open={open}
      title={t('operators.create.title')}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      width={560}
    >
      <Form
        {...formProps}
        initialValues={{ mode: 'generate', roles: [] }}
        preserve={false}
        data-testid="create-operator-form"
      >
        <FormNotice message={failure} />
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
        <DialogFooter
          busy={busy}
          label={t('operators.create.submit')}
          testId="create-submit"
          onCancel={onClose}
        />
      </Form>
    </Modal>
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
    <Modal
      open={operator !== undefined}
      title={t('operators.rolesDialog.title', { username: operator?.username ?? '' })}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      width={520}
    >
      {operator && (
        <Form
          {...formProps}
          initialValues={{ roles: operator.roles }}
          preserve={false}
          data-testid="roles-form"
        >
          <FormNotice message={failure} />
          <Form.Item name="roles" label={t('operators.roles')}>
            <RoleChecks />
          </Form.Item>
          <DialogFooter
            busy={busy}
            label={t('operators.rolesDialog.submit')}
            testId="roles-submit"
            onCancel={onClose}
          />
        </Form>
      )}
    </Modal>
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
    <Modal
      open={operator !== undefined}
      title={t('operators.reset.title', { username: operator?.username ?? '' })}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      width={520}
    >
      <Form
        {...formProps}
        initialValues={{ mode: 'generate' }}
        preserve={false}
        data-testid="reset-form"
      >
        <FormNotice message={failure} />
        <FormNotice type="info" testId="reset-effect" message={t('operators.reset.effect')} />
        <PasswordChoice mode={mode} testId="reset" />
        <DialogFooter
          busy={busy}
          label={t('operators.reset.submit')}
          testId="reset-submit"
          onCancel={onClose}
        />
      </Form>
    </Modal>
  );
}
