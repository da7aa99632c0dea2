/**
 * Creating an API key (a label, read and trade permissions, the addresses it is accepted from one
 * a line, when it expires, and a two-factor code once two-factor is on) and changing one (its
 * label and allow-list only). What is wrong shows under its field, before the call and after the
 * server's refusal; a two-factor code is good for one try, so a refused one is cleared.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, Input, TextArea } from 'antd-mobile';
import {
  API_KEY,
  API_KEY_PERMISSIONS,
  withImpliedPermissions,
  type ApiKeyCreated,
  type ApiKeyPermission,
  type ApiKeyView,
} from '@bourse/shared';
import { ApiError, showToast, unhandledMessage } from '../../api';
import { ChoiceRow } from '../../components/choice-row';
import { useDemoAccount } from '../../components/demo-account';
import { Field } from '../../components/field';
import { FieldGroup } from '../../components/field-group';
import { Form, SubmitButton } from '../../components/form';
import { TwoFactorCodeField } from '../../components/two-factor-code-field';
import { useSubmit } from '../../hooks/use-submit';
import { translate } from '../../i18n';
import { useTranslation } from '../../i18n/react';
import { createApiKey, updateApiKey } from './api-keys-api';
import {
  allowListText,
  EXPIRY_CHOICES,
  fieldOfRefusal,
  parseAllowList,
  type ApiKeyField,
  type ExpiryChoice,
} from './api-key-rules';
import { fetchTwoFactorStatus, TWO_FACTOR_STATUS_KEY } from './two-factor-api';

type Problems = Partial<Record<ApiKeyField, string | undefined>>;

/**
 * The state every key form shares: the label, the allow-list, the two-factor code (asked once it
 * is on), what is wrong with each, and the server's refusal under its field until that field
 * changes.
 */
function useKeyFields(initial: { label: string; ipText: string }) {
  const { t } = useTranslation();
  const twoFactor = useQuery({ queryKey: TWO_FACTOR_STATUS_KEY, queryFn: fetchTwoFactorStatus });
  const twoFactorOn = twoFactor.data?.enabled === 1;
  const [label, setLabel] = useState(initial.label);
  const [ipText, setIpText] = useState(initial.ipText);
  const [code, setCode] = useState('');
  const [touched, setTouched] = useState(false);
  const [refused, setRefused] = useState<{ field: ApiKeyField; message: string }>();
  const allowList = parseAllowList(ipText);
  const problems: Problems = {
    label: label.trim() ? undefined : translate('hint_paramRequired', ['label']),
    ipList: allowList.problem && translate(allowList.problem.key, allowList.problem.params),
    twoFactorCode: twoFactorOn && !code.trim() ? t('twoFactor_codeRequired') : undefined,
  };
  /** A field changed: the server's refusal of it no longer stands. */
  const changed = (field: ApiKeyField) => {
    if (refused?.field === field) setRefused(undefined);
  };
  return {
    twoFactorOn,
    twoFactorPending: twoFactor.isPending,
    label,
    setLabel: (value: string) => {
      setLabel(value);
      changed('label');
    },
    ipText,
    setIpText: (value: string) => {
      setIpText(value);
      changed('ipList');
    },
    code,
    setCode: (value: string) => {
      setCode(value);
      changed('twoFactorCode');
    },
    entries: allowList.entries,
    twoFactorCode: twoFactorOn ? code.trim() : undefined,
    changed,
    /**
     * What shows under a field: the server's refusal of it until it changes (a refused code is
     * cleared, and the refusal says why better than "enter a code"), else its own problem once
     * the form was sent.
     */
    error(field: ApiKeyField, extra: Problems = {}): string | undefined {
      if (refused?.field === field) return refused.message;
      return touched ? ({ ...problems, ...extra }[field] ?? undefined) : undefined;
    },
    /** Starts a submit: every problem shows from now; whether the form may be sent. */
    check(extra: Problems = {}): boolean {
      setTouched(true);
      setRefused(undefined);
      return !Object.values({ ...problems, ...extra }).some(Boolean);
    },
    /** The server refused: its message under the field it names (it was toasted too). */
    refuse(error: unknown) {
      const message = unhandledMessage(error);
      if (message) showToast(message);
      if (!(error instanceof ApiError)) return;
      const field = fieldOfRefusal(error.msg, error.params);
      if (field) setRefused({ field, message: translate(error.msg, error.params) });
      if (error.msg.startsWith('hint_twoFactor')) setCode('');
    },
  };
}

type KeyFields = ReturnType<typeof useKeyFields>;

function LabelField({ fields, id }: { fields: KeyFields; id: string }) {
  const { t } = useTranslation();
  return (
    <Field label={t('field_label')} htmlFor={id} error={fields.error('label')}>
      <Input
        id={id}
        name="label"
        autoComplete="off"
        maxLength={API_KEY.labelMaxLength}
        placeholder={t('apiKeys_labelPlaceholder')}
        value={fields.label}
        onChange={fields.setLabel}
      />
    </Field>
  );
}

function AllowListField({ fields, id }: { fields: KeyFields; id: string }) {
  const { t } = useTranslation();
  return (
    <div>
      <Field label={t('field_ipList')} htmlFor={id} error={fields.error('ipList')}>
        <TextArea
          id={id}
          className="ak-addresses"
          rows={3}
          autoSize={{ minRows: 3, maxRows: 8 }}
          // 30 entries of an IPv6 range at most, and a line break each.
          maxLength={API_KEY.maxAddresses * 65}
          placeholder={t('apiKeys_ipListPlaceholder')}
          value={fields.ipText}
          onChange={fields.setIpText}
        />
      </Field>
      <p className="muted ak-help">{translate('apiKeys_ipListHelp', [API_KEY.maxAddresses])}</p>
    </div>
  );
}

function CodeField({ fields, id }: { fields: KeyFields; id: string }) {
  if (!fields.twoFactorOn) return null;
  return (
    <TwoFactorCodeField
      id={id}
      value={fields.code}
      onChange={fields.setCode}
      error={fields.error('twoFactorCode')}
    />
  );
}

export function CreateKeyForm({
  onCreated,
  onCancel,
}: {
  onCreated: (created: ApiKeyCreated) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const demo = useDemoAccount();
  const fields = useKeyFields({ label: '', ipText: '' });
  const [permissions, setPermissions] = useState<ApiKeyPermission[]>(['read']);
  const [expiry, setExpiry] = useState<ExpiryChoice>(90);
  const extra: Problems = {
    permissions:
      permissions.length > 0 ? undefined : translate('hint_apiKeyPermissions', ['permissions']),
  };
  /** Read comes with trade: it is on, and stays on, while trade is. */
  const impliedRead = permissions.includes('trade');
  const toggle = (permission: ApiKeyPermission) => {
    setPermissions((list) =>
      withImpliedPermissions(
        list.includes(permission)
          ? list.filter((item) => item !== permission)
          : [...list, permission],
      ),
    );
    fields.changed('permissions');
  };
  const { submit, pending } = useSubmit(async () => {
    if (!fields.check(extra)) return;
    try {
      onCreated(
        await createApiKey({
          label: fields.label.trim(),
          permissions,
          ipList: fields.entries,
          expireDays: expiry === 0 ? undefined : expiry,
          twoFactorCode: fields.twoFactorCode,
        }),
      );
    } catch (error) {
      fields.refuse(error);
      throw error;
    }
  });
  return (
    <Form onSubmit={submit} className="form ak-form" testId="api-key-create">
      <h2 className="ak-title">{t('apiKeys_createTitle')}</h2>
      <LabelField fields={fields} id="api-key-label" />
      <div>
        <FieldGroup
          label={t('field_permissions')}
          labelId="api-key-permissions-label"
          error={fields.error('permissions', extra)}
        >
          <div className="chips" role="group" aria-labelledby="api-key-permissions-label">
            {API_KEY_PERMISSIONS.map((permission) => (
              <button
                key={permission}
                type="button"
                aria-pressed={permissions.includes(permission)}
                disabled={permission === 'read' && impliedRead}
                data-testid={`api-key-permission-${permission}`}
                onClick={() => toggle(permission)}
              >
                {t(`apiKeys_permission_${permission}`)}
              </button>
            ))}
          </div>
        </FieldGroup>
        <p className="muted ak-help">{t('apiKeys_permissionsHelp')}</p>
        <p className="ak-no-withdraw" data-testid="api-key-no-withdraw">
          {t('apiKeys_noWithdraw')}
        </p>
      </div>
      <AllowListField fields={fields} id="api-key-addresses" />
      <FieldGroup label={t('apiKeys_expiry')} labelId="api-key-expiry-label">
        <ChoiceRow
          className="chips"
          label={t('apiKeys_expiry')}
          options={EXPIRY_CHOICES}
          value={expiry}
          onChange={setExpiry}
          text={(days) => (days === 0 ? t('apiKeys_noExpiry') : translate('apiKeys_days', [days]))}
          testId="api-key-expiry"
        />
      </FieldGroup>
      <p className="muted ak-help" data-testid="api-key-book">
        {t(demo ? 'apiKeys_bookNote_demo' : 'apiKeys_bookNote_live')}
      </p>
      <CodeField fields={fields} id="api-key-create-code" />
      <div className="ak-actions">
        <Button onClick={onCancel}>{t('common_cancel')}</Button>
        <SubmitButton pending={pending} disabled={fields.twoFactorPending}>
          {t('apiKeys_submitCreate')}
        </SubmitButton>
      </div>
    </Form>
  );
}

export function EditKeyForm({
  apiKey,
  onSaved,
  onCancel,
}: {
  apiKey: ApiKeyView;
  onSaved: (key: ApiKeyView) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const fields = useKeyFields({ label: apiKey.label, ipText: allowListText(apiKey) });
  const { submit, pending } = useSubmit(async () => {
    if (!fields.check()) return;
    try {
      onSaved(
        await updateApiKey({
          id: apiKey.id,
          label: fields.label.trim(),
          ipList: fields.entries,
          twoFactorCode: fields.twoFactorCode,
        }),
      );
    } catch (error) {
      fields.refuse(error);
      throw error;
    }
  });
  return (
    <Form onSubmit={submit} className="form ak-form" testId="api-key-edit">
      <h2 className="ak-title">{t('apiKeys_editTitle')}</h2>
      <p className="muted ak-help">{t('apiKeys_editNote')}</p>
      <LabelField fields={fields} id="api-key-edit-label" />
      <AllowListField fields={fields} id="api-key-edit-addresses" />
      <CodeField fields={fields} id="api-key-edit-code" />
      <div className="ak-actions">
        <Button onClick={onCancel}>{t('common_cancel')}</Button>
        <SubmitButton pending={pending} disabled={fields.twoFactorPending}>
          {t('common_save')}
        </SubmitButton>
      </div>
    </Form>
  );
}
