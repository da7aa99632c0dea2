/**
 * The drawer an offering is written in, before its window opens: product type (US stock or
 * crypto; it decides the currency, the product type's trade currency), the code it lists under,
 * its name and description in the 19 languages (English first: the others fall back to it), the
 * offer price, lot size, lots offered and per user, fee rate, the four times (in the operator's
 * time zone, to the second; sent as ISO), the lock-up after listing and the identity level.
 *
 * The values are checked with the call's own schema before sending and each refusal is shown on
 * its field, in the words the server would use (lib/form.ts); a refusal of the server goes on the
 * field it names (a code taken, a window already open), else above the form. The allocation rule
 * is not a field: it is the published one, named in the drawer.
 */
import { useState } from 'react';
import { App, Form, Input, InputNumber, Select, Space, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  ALLOCATION_RULE,
  NEW_SHARE_LIMITS,
  consoleNewSharesApi,
  isDecimalString,
  mul,
  normalize,
  offeringSaveBody,
  type ConsoleOffering,
} from '@bourse/shared';
import { api } from '../../api';
import { useCallForm } from '../../components/call-form';
import { EditorDrawer } from '../../components/editor-drawer';
import { LanguageTabs } from '../../components/language-tabs';
import { serverText } from '../../i18n';
import { checkWith } from '../../lib/form';
import { isoTime } from '../../lib/format';

type Texts = Record<string, string>;

const TIME_FIELDS = ['subscribeStart', 'subscribeEnd', 'allocationTime', 'listingTime'] as const;
type TimeField = (typeof TIME_FIELDS)[number];

/** The form's fields: a refusal naming one is shown on it. */
const FIELDS = [
  'productType',
  'code',
  'price',
  'lotSize',
  'lotsOffered',
  'minLots',
  'maxLots',
  'feeRate',
  ...TIME_FIELDS,
  'lockUpDays',
  'minAuthLevel',
] as const;

const TEST_IDS: Record<TimeField, string> = {
  subscribeStart: 'new-share-start',
  subscribeEnd: 'new-share-end',
  allocationTime: 'new-share-allocation-time',
  listingTime: 'new-share-listing-time',
};

/** An ISO time as a datetime-local input with seconds shows it (the browser's time zone). */
export function localSeconds(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (value: number) => String(value).padStart(2, '0');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

function initialValues(offering: ConsoleOffering | undefined) {
  return {
    productType: offering?.productType ?? 1,
    code: offering?.code ?? '',
    price: offering?.price ?? '',
    lotSize: offering?.lotSize ?? '',
    lotsOffered: offering?.lotsOffered ?? '',
    minLots: offering?.minLots ?? '1',
    maxLots: offering?.maxLots ?? '',
    feeRate: offering?.feeRate ?? '0',
    subscribeStart: localSeconds(offering?.subscribeStart),
    subscribeEnd: localSeconds(offering?.subscribeEnd),
    allocationTime: localSeconds(offering?.allocationTime),
    listingTime: localSeconds(offering?.listingTime),
    lockUpDays: offering?.lockUpDays ?? 0,
    minAuthLevel: offering?.minAuthLevel ?? -1,
  };
}

const keep = (texts: Texts) =>
  Object.fromEntries(Object.entries(texts).filter(([, value]) => value.trim()));

const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : value);

/** Lots × lot size, and its value at the offer price, once all three read as decimals. */
function offeredFigures(lots: unknown, lotSize: unknown, price: unknown) {
  const [l, s, p] = [lots, lotSize, price].map(trimmed);
  if (!isDecimalString(l) || !isDecimalString(s)) return undefined;
  const quantity = normalize(mul(l, s));
  return { quantity, value: isDecimalString(p) ? normalize(mul(quantity, p)) : undefined };
}

export function OfferingEditor({
  offering,
  onClose,
}: {
  offering?: ConsoleOffering;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [name, setName] = useState<Texts>(() => ({ ...offering?.name }));
  const [description, setDescription] = useState<Texts>(() => ({ ...offering?.description }));
  const [language, setLanguage] = useState('en');
  const [nameError, setNameError] = useState<string>();

  const { form, busy, failure, formProps } = useCallForm(FIELDS, (values, formInstance) => {
    const names = keep(name);
    const descriptions = keep(description);
    const englishMissing = !names.en;
    setNameError(englishMissing ? serverText('hint_langEnglishRequired', ['name']) : undefined);
    const body = checkWith(formInstance, offeringSaveBody, {
      ...Object.fromEntries(Object.entries(values).map(([key, value]) => [key, trimmed(value)])),
      ...Object.fromEntries(
        TIME_FIELDS.map((field) => [field, isoTime(String(values[field] ?? '')) ?? '']),
      ),
      id: offering?.id,
      name: names,
      // The server keeps no description when none is written (English is then required).
      description: Object.keys(descriptions).length > 0 ? descriptions : undefined,
    });
    if (englishMissing) {
      setLanguage('en');
      return undefined;
    }
    if (!body) return undefined;
    return async () => {
      await api.call(consoleNewSharesApi.saveOffering, body);
      void message.success(t('newShares.saved'));
      await queryClient.invalidateQueries({ queryKey: ['newShares'] });
      onClose();
    };
  });

  const lotsOffered = Form.useWatch('lotsOffered', form) as unknown;
  const lotSize = Form.useWatch('lotSize', form) as unknown;
  const price = Form.useWatch('price', form) as unknown;
  const figures = offeredFigures(lotsOffered, lotSize, price);
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const written = (lang: string) => Boolean(name[lang]?.trim() || description[lang]?.trim());

  const decimal = (field: 'price' | 'lotSize' | 'feeRate', testId: string, placeholder: string) => (
    <Form.Item
      name={field}
      label={t(`newShares.field.${field}`)}
      tooltip={t(`newShares.${field}Help`)}
      style={{ width: 180 }}
    >
      <Input inputMode="decimal" placeholder={placeholder} data-testid={testId} />
    </Form.Item>
  );
  const lots = (field: 'lotsOffered' | 'minLots' | 'maxLots', testId: string) => (
    <Form.Item
      name={field}
      label={t(`newShares.field.${field}`)}
      tooltip={t('newShares.lotsHelp')}
      style={{ width: 180 }}
    >
      <Input inputMode="numeric" maxLength={10} data-testid={testId} />
    </Form.Item>
  );

  return (
    <EditorDrawer
      title={offering ? t('newShares.editTitle', { code: offering.code }) : t('newShares.newTitle')}
      testId="new-share"
      saveText={t('newShares.save')}
      saving={{ busy, failure }}
      onSave={() => form.submit()}
      onClose={onClose}
    >
      <Form {...formProps} initialValues={initialValues(offering)}>
        <Typography.Paragraph type="secondary" data-testid="new-share-rule">
          {t('newShares.ruleNote', { rule: ALLOCATION_RULE })}
        </Typography.Paragraph>
        <Space wrap size={16} align="start">
          <Form.Item name="productType" label={t('newShares.field.type')} style={{ width: 180 }}>
            <Select
              options={[1, 2].map((value) => ({
                value,
                label: t(`newShares.type.${value as 1}`),
              }))}
              data-testid="new-share-type"
            />
          </Form.Item>
          <Form.Item
            name="code"
            label={t('newShares.field.code')}
            tooltip={t('newShares.codeHelp')}
            normalize={(value: string) => value.toUpperCase()}
            style={{ width: 180 }}
          >
            <Input maxLength={16} data-testid="new-share-code" />
          </Form.Item>
          {decimal('price', 'new-share-price', '12.50')}
          {decimal('lotSize', 'new-share-lot-size', '100')}
        </Space>
        <Space wrap size={16} align="start">
          {lots('lotsOffered', 'new-share-lots-offered')}
          {lots('minLots', 'new-share-min-lots')}
          {lots('maxLots', 'new-share-max-lots')}
          {decimal('feeRate', 'new-share-fee-rate', '0.001')}
        </Space>
        {figures && (
          <Typography.Paragraph type="secondary" data-testid="new-share-offered">
            {t('newShares.quantityLine', {
              quantity: figures.quantity,
              value: figures.value ?? '–',
            })}
          </Typography.Paragraph>
        )}
        <Typography.Paragraph type="secondary">
          {t('newShares.timesHelp', { zone })}
        </Typography.Paragraph>
        <Space wrap size={16} align="start">
          {TIME_FIELDS.map((field) => (
            <Form.Item
              key={field}
              name={field}
              label={t(`newShares.field.${field}`)}
              style={{ width: 210 }}
            >
              <Input type="datetime-local" step={1} data-testid={TEST_IDS[field]} />
            </Form.Item>
          ))}
        </Space>
        <Space wrap size={16} align="start">
          <Form.Item
            name="lockUpDays"
            label={t('newShares.field.lockUpDays')}
            tooltip={t('newShares.lockUpHelp')}
            style={{ width: 180 }}
          >
            <InputNumber<number>
              min={0}
              max={NEW_SHARE_LIMITS.lockUpDaysMax}
              precision={0}
              style={{ width: '100%' }}
              data-testid="new-share-lock-up"
            />
          </Form.Item>
          <Form.Item name="minAuthLevel" label={t('newShares.field.level')} style={{ width: 210 }}>
            <Select
              options={(
                [
                  [-1, 'none'],
                  [0, 'basic'],
                  [1, 'advanced'],
                ] as const
              ).map(([value, key]) => ({ value, label: t(`newShares.level.${key}`) }))}
              data-testid="new-share-level"
            />
          </Form.Item>
        </Space>
        <Typography.Paragraph type="secondary">{t('newShares.languagesHelp')}</Typography.Paragraph>
        <LanguageTabs active={language} onChange={setLanguage} testId="new-share" written={written}>
          {(item, dir) => (
            <>
              <Form.Item
                label={t('newShares.field.name')}
                {...(item.key === 'en' && nameError
                  ? { validateStatus: 'error' as const, help: nameError }
                  : {})}
              >
                <Input
                  value={name[item.key] ?? ''}
                  maxLength={NEW_SHARE_LIMITS.nameMax}
                  dir={dir}
                  onChange={(event) => {
                    setName((current) => ({ ...current, [item.key]: event.target.value }));
                    if (item.key === 'en') setNameError(undefined);
                  }}
                  data-testid={`new-share-name-${item.key}`}
                />
              </Form.Item>
              <Form.Item label={t('newShares.field.description')}>
                <Input.TextArea
                  value={description[item.key] ?? ''}
                  maxLength={NEW_SHARE_LIMITS.descriptionMax}
                  rows={4}
                  dir={dir}
                  onChange={(event) =>
                    setDescription((current) => ({
                      ...current,
                      [item.key]: event.target.value,
                    }))
                  }
                  data-testid={`new-share-description-${item.key}`}
                />
              </Form.Item>
            </>
          )}
        </LanguageTabs>
      </Form>
    </EditorDrawer>
  );
}
