/**
 * Binds a bank card, or edits one (query `id`). The form is built from the platform's card
 * fields (bankPropertyConfig, configType 0): their labels, which are required, their lengths and
 * the digits-only card number (spaces allowed while typing, sent without). When editing, the card
 * number is shown masked and left empty to keep it.
 */
import { useState } from 'react';
import { Input } from 'antd-mobile';
import { BankcardOutline } from 'antd-mobile-icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/react';
import { useSearchParams } from 'react-router';
import { showToast } from '../../api';
import { isSignedIn } from '../../api/session';
import { Field } from '../../components/field';
import { Form, SubmitButton } from '../../components/form';
import { SignedInScreen } from '../../components/signed-in-screen';
import { useSubmit } from '../../hooks/use-submit';
import { translate } from '../../i18n';
import { navigateBack } from '../../lib/navigation';
import {
  addBankCard,
  CARD_NUMBER_FIELD,
  fetchBankCards,
  fetchBankFields,
  QUERY_KEY,
  updateBankCard,
  type BankField,
} from './api';
import { EmptyState, groupCardNumber, Loading } from './parts';

const CARD_NUMBER = /^[0-9A-Z]{6,34}$/;

/** The value as it is sent: trimmed; the card number without spaces and in upper case. */
function cleaned(field: BankField, value: string): string {
  return field.propertyName === CARD_NUMBER_FIELD
    ? value.replace(/\s+/g, '').toUpperCase()
    : value.trim().replace(/\s+/g, ' ');
}

/** What is wrong with a field's value, or undefined (the server checks the same rules). */
function fieldError(
  field: BankField,
  label: string,
  value: string,
  keepsNumber: boolean,
): string | undefined {
  const isNumber = field.propertyName === CARD_NUMBER_FIELD;
  const text = cleaned(field, value);
  if (!text) {
    // The card number is always needed, except when editing, where empty keeps it.
    const required = isNumber ? !keepsNumber : field.isRequired === 1;
    return required ? translate('hint_paramRequired', [label]) : undefined;
  }
  if (field.inputType === 'digits' && !/^\d+$/.test(text))
    return translate('hint_bankFieldDigits', [label]);
  if (text.length > field.maxLength)
    return translate('hint_paramTooLong', [label, field.maxLength]);
  if (isNumber && !CARD_NUMBER.test(text)) return translate('hint_bankCardNumberInvalid', [label]);
  return undefined;
}

export default function BindBankCardPage() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [search] = useSearchParams();
  const editId = Number(search.get('id')) || undefined;
  const fields = useQuery({
    queryKey: QUERY_KEY.bankFields,
    queryFn: fetchBankFields,
    staleTime: 60_000,
  });
  const cards = useQuery({
    queryKey: QUERY_KEY.bankCards,
    queryFn: fetchBankCards,
    enabled: editId !== undefined && isSignedIn(),
  });
  const card = editId === undefined ? undefined : cards.data?.find((row) => row.id === editId);
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [touched, setTouched] = useState(false);

  const label = (field: BankField) =>
    i18n.exists(field.labelKey) ? t(field.labelKey) : field.label;
  const initial = (name: string) =>
    name === CARD_NUMBER_FIELD ? '' : (card?.properties[name] ?? '');
  const value = (name: string) => edits[name] ?? initial(name);
  const keepsNumber = card !== undefined;
  const errors = Object.fromEntries(
    (fields.data ?? []).map((field) => [
      field.propertyName,
      fieldError(field, label(field), value(field.propertyName), keepsNumber),
    ]),
  );

  const { submit, pending } = useSubmit(async () => {
    setTouched(true);
    if (!fields.data || Object.values(errors).some(Boolean)) return;
    const body: Record<string, string> = {};
    for (const field of fields.data) {
      const text = cleaned(field, value(field.propertyName));
      // Adding: only what was filled in. Editing: every field, an empty one clearing it, except
      // the card number, which stays when left empty.
      if (text || (card && field.propertyName !== CARD_NUMBER_FIELD))
        body[field.propertyName] = text;
    }
    if (card) await updateBankCard(card.id, body);
    else await addBankCard(body);
    await queryClient.invalidateQueries({ queryKey: QUERY_KEY.bankCards });
    showToast(t('bankCard_saved'));
    navigateBack(1);
  });

  const loading = fields.isPending || (editId !== undefined && cards.isPending);
  const missing = editId !== undefined && cards.isSuccess && !card;

  return (
    <SignedInScreen
      testId="bind-bank-card-page"
      title={t(editId !== undefined ? 'bankCard_editTitle' : 'bankCard_bindTitle')}
    >
      {loading && <Loading />}
      {missing && (
        <EmptyState
          icon={<BankcardOutline />}
          text={t('hint_bankCardNotFound')}
          action={t('common_back')}
          onAction={() => navigateBack(1)}
        />
      )}
      {!loading && !missing && fields.data && (
        <Form onSubmit={submit} className="form pm-form-body" testId="bank-card-form">
          <p className="pm-note">{t('bankCard_formNote')}</p>
          {fields.data.map((field) => {
            const name = field.propertyName;
            const isNumber = name === CARD_NUMBER_FIELD;
            const digits = field.inputType === 'digits';
            const shownError = touched || edits[name] !== undefined ? errors[name] : undefined;
            return (
              <Field
                key={name}
                label={`${label(field)}${
                  field.isRequired === 1 || isNumber ? '' : ` (${t('bankCard_optional')})`
                }`}
                error={shownError}
                htmlFor={`bank-${name}`}
              >
                <Input
                  id={`bank-${name}`}
                  name={name}
                  inputMode={digits ? 'numeric' : undefined}
                  autoComplete="off"
                  // A card number may be typed in groups of four.
                  maxLength={
                    isNumber ? field.maxLength + Math.ceil(field.maxLength / 4) : field.maxLength
                  }
                  placeholder={
                    isNumber
                      ? card
                        ? translate('bankCard_keepNumber', [groupCardNumber(card.cardNumber)])
                        : t(digits ? 'bankCard_numberDigits' : 'bankCard_numberAny')
                      : undefined
                  }
                  value={value(name)}
                  onChange={(next) =>
                    setEdits((current) => ({
                      ...current,
                      [name]: digits ? next.replace(/[^\d ]/g, '') : next,
                    }))
                  }
                  clearable
                />
              </Field>
            );
          })}
          <SubmitButton pending={pending} large>
            {t(card ? 'common_save' : 'bankCard_bindSubmit')}
          </SubmitButton>
        </Form>
      )}
    </SignedInScreen>
  );
}
