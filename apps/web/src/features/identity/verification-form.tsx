/**
 * The request for a level: the real name, the document's type and number, and, for the basic
 * level, a phone where the platform asks for one; for the advanced level the front, back and a
 * photo holding the document, each compressed in the browser as payment proofs are. Checked
 * here by the server's rules before anything is sent; a refusal of the server is shown under
 * its field. One request id per filling of the form: a retry of the same request (a lost answer)
 * is answered once, any change makes a new one.
 */
import { useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Input } from 'antd-mobile';
import { CameraOutline } from 'antd-mobile-icons';
import { AUTH_DOCUMENT_SIDES, AUTH_LEVEL, ID_TYPE, type AuthDocumentSide } from '@bourse/shared';
import { ApiError, showToast } from '../../api';
import { ChoiceRow } from '../../components/choice-row';
import { Field } from '../../components/field';
import { FieldGroup } from '../../components/field-group';
import { Form, SubmitButton } from '../../components/form';
import { useImagePick } from '../../hooks/use-image-pick';
import { useSubmit } from '../../hooks/use-submit';
import { translate } from '../../i18n';
import { useTranslation } from '../../i18n/react';
import { newRequestId } from '../../lib/trade';
import { applied, applyAuth, identityKeys, type AuthRecord } from './api';
import {
  basicProblems,
  cleanIdNumber,
  fieldOfRefusal,
  IMAGE_FIELD,
  idNumberMaxLength,
  imageProblems,
  PHONE_MAX,
  REAL_NAME_MAX,
  type BasicValues,
  type FormField,
  type Problem,
} from './checks';
import { ID_TYPE_LABEL, SIDE_LABEL } from './parts';

const ID_TYPES = Object.values(ID_TYPE);

const SIDE_HINT: Record<AuthDocumentSide, string> = {
  front: 'identity_frontHint',
  back: 'identity_backHint',
  hold: 'identity_holdHint',
};

/** Refusals that mean the request's state changed elsewhere: the screen reads it again. */
const STATE_CHANGED = new Set(['hint_authUnderReview', 'hint_authApproved', 'hint_authBasicFirst']);

function DocumentPicker({
  side,
  image,
  onChange,
  error,
}: {
  side: AuthDocumentSide;
  image: string | undefined;
  onChange: (image: string | undefined) => void;
  error: string | undefined;
}) {
  const { t } = useTranslation();
  const { busy, pick } = useImagePick(onChange);
  const inputId = `identity-${side}`;
  const labelId = `${inputId}-label`;

  return (
    <FieldGroup label={t(SIDE_LABEL[side])} labelId={labelId} error={error}>
      <input
        id={inputId}
        className="id-file"
        type="file"
        accept="image/jpeg,image/png"
        aria-labelledby={labelId}
        disabled={busy}
        data-testid={`identity-file-${side}`}
        onChange={(event) => void pick(event)}
      />
      {image ? (
        <div className="id-preview">
          <img src={image} alt={t(SIDE_LABEL[side])} data-testid={`identity-preview-${side}`} />
          <div className="stack" style={{ gap: 8 }}>
            <label htmlFor={inputId} className="field-addon">
              {t('proof_change')}
            </label>
            <button
              type="button"
              className="field-addon"
              style={{ color: 'var(--danger)' }}
              onClick={() => onChange(undefined)}
            >
              {t('proof_remove')}
            </button>
          </div>
        </div>
      ) : (
        <label htmlFor={inputId} className="card id-pick" data-testid={`identity-pick-${side}`}>
          <CameraOutline className="id-pick-icon" aria-hidden="true" />
          <span>{t('identity_choosePhoto')}</span>
          <span style={{ fontSize: 12 }}>{t(SIDE_HINT[side])}</span>
        </label>
      )}
    </FieldGroup>
  );
}

export function VerificationForm({
  level,
  previous,
  askPhone = false,
  basicName,
}: {
  level: number;
  /** The last request of this level (rejected): its name and document type are kept. */
  previous?: AuthRecord | undefined;
  /** The basic level asks for a phone where the platform's page configuration shows it. */
  askPhone?: boolean;
  /** Advanced: the name of the approved basic request, which this one must repeat. */
  basicName?: string | null;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const advanced = level === AUTH_LEVEL.advanced;
  const [values, setValues] = useState<BasicValues>(() => ({
    realName: previous?.realName ?? basicName ?? '',
    idType: previous?.idType ?? ID_TYPE.idCard,
    idNumber: '',
    phone: previous?.phone ?? '',
  }));
  const [images, setImages] = useState<Partial<Record<AuthDocumentSide, string>>>({});
  const [touched, setTouched] = useState(false);
  // The server's refusal of what was last sent, under its field until that field changes.
  const [refused, setRefused] = useState<{ field: FormField; problem: Problem }>();
  const requestId = useRef(newRequestId('auth'));
  const changed = (field: FormField) => {
    requestId.current = newRequestId('auth');
    if (refused?.field === field) setRefused(undefined);
  };
  const set = (field: keyof BasicValues, value: string | number) => {
    setValues((current) => ({ ...current, [field]: value }));
    changed(field);
  };

  const problems: Partial<Record<FormField, Problem>> = {
    ...basicProblems(askPhone && !advanced ? values : { ...values, phone: '' }),
    ...(advanced ? imageProblems(images) : {}),
  };
  const shown = (field: FormField): string | undefined => {
    const problem = touched ? problems[field] : undefined;
    if (problem) return translate(problem.key, problem.params);
    if (refused?.field === field) return translate(refused.problem.key, refused.problem.params);
    return undefined;
  };

  // `_request` tells a changed request from a double tap (see the form below).
  const { submit, pending } = useSubmit(async (_request: string) => {
    setTouched(true);
    if (Object.values(problems).some(Boolean)) return;
    try {
      const record = await applyAuth({
        authLevel: level,
        realName: values.realName.trim(),
        idType: values.idType,
        idNumber: cleanIdNumber(values.idNumber),
        ...(!advanced && askPhone && values.phone.trim() ? { phone: values.phone.trim() } : {}),
        ...(advanced
          ? { frontImage: images.front, backImage: images.back, holdImage: images.hold }
          : {}),
        requestId: requestId.current,
      });
      requestId.current = newRequestId('auth');
      showToast(t('identity_submitted'));
      applied(queryClient, record);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const field = fieldOfRefusal(error.msg, error.params);
      if (field) setRefused({ field, problem: { key: error.msg, params: error.params } });
      if (STATE_CHANGED.has(error.msg)) {
        void queryClient.invalidateQueries({ queryKey: identityKeys.detail(level) });
        void queryClient.invalidateQueries({ queryKey: identityKeys.detail(AUTH_LEVEL.basic) });
      }
      throw error;
    }
  });

  return (
    <Form
      // The images are no form fields: the request id, new on every change, tells a changed
      // request from a double tap.
      onSubmit={(fingerprint) => submit(`${fingerprint}|${requestId.current}`)}
      className="stack"
      testId={`identity-form-${level}`}
    >
      <Field label={t('field_realName')} error={shown('realName')} htmlFor="identity-real-name">
        <Input
          id="identity-real-name"
          name="realName"
          autoComplete="name"
          value={values.realName}
          maxLength={REAL_NAME_MAX}
          placeholder={t('identity_realNamePlaceholder')}
          onChange={(value) => set('realName', value)}
          clearable
        />
      </Field>
      {advanced && basicName && (
        <p className="notice" data-testid="identity-same-name" style={{ marginTop: -4 }}>
          {translate('identity_sameName', [basicName])}
        </p>
      )}

      <FieldGroup
        label={t('field_idType')}
        labelId="identity-id-type-label"
        error={shown('idType')}
      >
        <ChoiceRow
          className="chips"
          label={t('field_idType')}
          options={ID_TYPES}
          text={(type) => t(ID_TYPE_LABEL[type] ?? '')}
          value={values.idType}
          onChange={(type) => set('idType', type)}
          testId="identity-id-type"
        />
      </FieldGroup>

      <div>
        <Field label={t('field_idNumber')} error={shown('idNumber')} htmlFor="identity-id-number">
          <Input
            id="identity-id-number"
            name="idNumber"
            autoComplete="off"
            value={values.idNumber}
            maxLength={idNumberMaxLength(values.idType)}
            placeholder={t('identity_idNumberPlaceholder')}
            onChange={(value) => set('idNumber', value.replace(/\s+/g, ''))}
            clearable
          />
        </Field>
        <p className="muted" style={{ fontSize: 12, margin: '4px 0 0' }}>
          {t(values.idType === ID_TYPE.idCard ? 'identity_idCardRule' : 'identity_documentRule')}
        </p>
      </div>

      {!advanced && askPhone && (
        <Field label={t('identity_phoneOptional')} error={shown('phone')} htmlFor="identity-phone">
          <Input
            id="identity-phone"
            name="phone"
            type="tel"
            autoComplete="tel"
            value={values.phone}
            maxLength={PHONE_MAX}
            placeholder={t('identity_phonePlaceholder')}
            onChange={(value) => set('phone', value)}
            clearable
          />
        </Field>
      )}

      {advanced &&
        AUTH_DOCUMENT_SIDES.map((side) => (
          <DocumentPicker
            key={side}
            side={side}
            image={images[side]}
            error={shown(IMAGE_FIELD[side])}
            onChange={(image) => {
              setImages((current) => ({ ...current, [side]: image }));
              changed(IMAGE_FIELD[side]);
            }}
          />
        ))}

      <SubmitButton pending={pending} large>
        {t(previous ? 'identity_resubmit' : 'identity_submit')}
      </SubmitButton>
    </Form>
  );
}
