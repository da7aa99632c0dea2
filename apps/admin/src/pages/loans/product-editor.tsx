/**
 * The drawer a loan product is written in: its currency and amount range, term, interest-free
 * days, the one daily rate and the overdue daily rate it publishes, how interest is settled, the
 * open loans one user may have, the identity level it needs, the fields an application asks (a
 * text, a number, a choice among values, an image), and its texts in the 19 languages (name,
 * description, each field's label and each choice's label; English first, the others fall back to
 * it). A change applies to new applications only: every loan keeps a copy of its terms. Once the
 * product has loans its currency is fixed (the server refuses the change).
 */
import { useState } from 'react';
import { Button, Checkbox, Form, Input, InputNumber, Select, Space, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  consoleLoansApi,
  LOAN_FIELD_TYPES,
  LOAN_LIMITS,
  LOAN_SETTLEMENT,
  type ConsoleLoanProduct,
  type LoanFieldType,
} from '@bourse/shared';
import { api } from '../../api';
import { EditorDrawer, useEditorSave } from '../../components/editor-drawer';
import { LanguageTabs } from '../../components/language-tabs';
import { useCurrencies } from '../../components/settings/parts';

type Texts = Record<string, string>;

interface ChoiceDraft {
  value: string;
  label: Texts;
}

interface FieldDraft {
  key: string;
  type: LoanFieldType;
  label: Texts;
  required: boolean;
  options: ChoiceDraft[];
}

interface Draft {
  name: Texts;
  description: Texts;
  currencyId: number;
  minAmount: string;
  maxAmount: string;
  termDays: number | null;
  interestFreeDays: number | null;
  dailyRate: string;
  overdueDailyRate: string;
  settlement: number;
  maxOpenLoans: number | null;
  minIdentityLevel: number;
  fields: FieldDraft[];
}

function draftOf(product: ConsoleLoanProduct | undefined): Draft {
  return {
    name: { ...product?.name },
    description: { ...product?.description },
    currencyId: product?.currencyId ?? 3,
    minAmount: product?.minAmount ?? '',
    maxAmount: product?.maxAmount ?? '',
    termDays: product?.termDays ?? 30,
    interestFreeDays: product?.interestFreeDays ?? 0,
    dailyRate: product?.dailyRate ?? '',
    overdueDailyRate: product?.overdueDailyRate ?? '',
    settlement: product?.settlement ?? LOAN_SETTLEMENT.atRepayment,
    maxOpenLoans: product?.maxOpenLoans ?? 1,
    minIdentityLevel: product?.minIdentityLevel ?? 0,
    fields:
      product?.fields.map((field) => ({
        key: field.key,
        type: field.type,
        label: { ...field.label },
        required: field.required,
        options: field.options.map((option) => ({
          value: option.value,
          label: { ...option.label },
        })),
      })) ?? [],
  };
}

const keep = (texts: Texts) =>
  Object.fromEntries(Object.entries(texts).filter(([, value]) => value.trim()));

export function ProductEditor({
  product,
  onClose,
}: {
  product?: ConsoleLoanProduct;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const currencies = useCurrencies();
  const [draft, setDraft] = useState<Draft>(() => draftOf(product));
  const [language, setLanguage] = useState('en');
  const saving = useEditorSave({ saved: t('loans.products.saved'), queryKey: ['loans'], onClose });
  const set = (change: Partial<Draft>) => setDraft((current) => ({ ...current, ...change }));
  const setField = (index: number, change: Partial<FieldDraft>) =>
    setDraft((current) => ({
      ...current,
      fields: current.fields.map((field, at) => (at === index ? { ...field, ...change } : field)),
    }));
  const setChoice = (index: number, choice: number, change: Partial<ChoiceDraft>) =>
    setDraft((current) => ({
      ...current,
      fields: current.fields.map((field, at) =>
        at === index
          ? {
              ...field,
              options: field.options.map((option, where) =>
                where === choice ? { ...option, ...change } : option,
              ),
            }
          : field,
      ),
    }));
  const written = (lang: string) =>
    Boolean(
      draft.name[lang]?.trim() ||
      draft.description[lang]?.trim() ||
      draft.fields.some((field) => field.label[lang]?.trim()),
    );

  const save = async () => {
    const name = keep(draft.name);
    const missingEnglish =
      !name.en ||
      draft.fields.some(
        (field) =>
          !field.label.en?.trim() ||
          (field.type === 'choice' && field.options.some((option) => !option.label.en?.trim())),
      );
    if (missingEnglish) {
      saving.setFailure(t('loans.editor.englishRequired'));
      setLanguage('en');
      return;
    }
    const description = keep(draft.description);
    await saving.send(() =>
      api.call(consoleLoansApi.saveProduct, {
        id: product?.id,
        name,
        description: Object.keys(description).length > 0 ? description : undefined,
        currencyId: draft.currencyId,
        minAmount: draft.minAmount.trim(),
        maxAmount: draft.maxAmount.trim(),
        termDays: draft.termDays ?? 0,
        interestFreeDays: draft.interestFreeDays ?? 0,
        dailyRate: draft.dailyRate.trim(),
        overdueDailyRate: draft.overdueDailyRate.trim(),
        settlement: draft.settlement,
        maxOpenLoans: draft.maxOpenLoans ?? 0,
        minIdentityLevel: draft.minIdentityLevel,
        fields: draft.fields.map((field) => ({
          key: field.key.trim(),
          type: field.type,
          label: keep(field.label),
          required: field.required,
          options:
            field.type === 'choice'
              ? field.options.map((option) => ({
                  value: option.value.trim(),
                  label: keep(option.label),
                }))
              : [],
        })),
      }),
    );
  };

  const images = draft.fields.filter((field) => field.type === 'image').length;
  const decimal = (
    key: 'minAmount' | 'maxAmount' | 'dailyRate' | 'overdueDailyRate',
    testId: string,
  ) => (
    <Input
      style={{ width: 150 }}
      inputMode="decimal"
      value={draft[key]}
      onChange={(event) => set({ [key]: event.target.value })}
      data-testid={testId}
    />
  );
  const whole = (
    key: 'termDays' | 'interestFreeDays' | 'maxOpenLoans',
    min: number,
    max: number,
    testId: string,
  ) => (
    <InputNumber<number>
      min={min}
      max={max}
      precision={0}
      value={draft[key]}
      onChange={(value) => set({ [key]: value })}
      data-testid={testId}
    />
  );
  return (
    <EditorDrawer
      title={product ? t('loans.editor.edit') : t('loans.editor.new')}
      testId="loan-product"
      saveText={t('loans.products.save')}
      saving={saving}
      onSave={() => void save()}
      onClose={onClose}
    >
      <Form layout="vertical" component="div">
        {product && product.openLoans > 0 && (
          <Typography.Paragraph type="warning">{t('loans.editor.lockedHelp')}</Typography.Paragraph>
        )}
        <Space wrap size={16} align="start">
          <Form.Item label={t('loans.editor.currency')} required>
            <Select
              style={{ width: 130 }}
              value={draft.currencyId}
              onChange={(currencyId: number) => set({ currencyId })}
              options={currencies.options}
              data-testid="loan-product-currency"
            />
          </Form.Item>
          <Form.Item label={t('loans.editor.minAmount')} required>
            {decimal('minAmount', 'loan-product-min')}
          </Form.Item>
          <Form.Item label={t('loans.editor.maxAmount')} required>
            {decimal('maxAmount', 'loan-product-max')}
          </Form.Item>
          <Form.Item label={t('loans.editor.termDays')} required>
            {whole('termDays', 1, LOAN_LIMITS.termDaysMax, 'loan-product-term')}
          </Form.Item>
          <Form.Item label={t('loans.editor.freeDays')}>
            {whole('interestFreeDays', 0, LOAN_LIMITS.termDaysMax, 'loan-product-free')}
          </Form.Item>
        </Space>
        <Space wrap size={16} align="start">
          <Form.Item
            label={t('loans.editor.dailyRate')}
            tooltip={t('loans.editor.rateHelp')}
            required
          >
            {decimal('dailyRate', 'loan-product-rate')}
          </Form.Item>
          <Form.Item label={t('loans.editor.overdueRate')} required>
            {decimal('overdueDailyRate', 'loan-product-overdue-rate')}
          </Form.Item>
          <Form.Item label={t('loans.editor.settlement')} required>
            <Select
              style={{ width: 240 }}
              value={draft.settlement}
              onChange={(settlement: number) => set({ settlement })}
              options={Object.values(LOAN_SETTLEMENT).map((value) => ({
                value,
                label: t(`loans.settlement.${String(value) as '1'}`),
              }))}
              data-testid="loan-product-settlement"
            />
          </Form.Item>
          <Form.Item label={t('loans.editor.maxOpen')} required>
            {whole('maxOpenLoans', 1, LOAN_LIMITS.maxOpenLoansMax, 'loan-product-max-open')}
          </Form.Item>
          <Form.Item label={t('loans.editor.level')} required>
            <Select
              style={{ width: 130 }}
              value={draft.minIdentityLevel}
              onChange={(minIdentityLevel: number) => set({ minIdentityLevel })}
              options={[-1, 0, 1].map((value) => ({
                value,
                label: t(`loans.editor.levels.${String(value) as '0'}`),
              }))}
              data-testid="loan-product-level"
            />
          </Form.Item>
        </Space>

        <Typography.Title level={5}>{t('loans.editor.fields')}</Typography.Title>
        <Typography.Paragraph type="secondary">{t('loans.editor.fieldsHelp')}</Typography.Paragraph>
        {draft.fields.map((field, index) => (
          <div
            key={index}
            style={{ border: '1px solid #f0f0f0', borderRadius: 6, padding: 12, marginBottom: 8 }}
            data-testid={`loan-product-field-${index}`}
          >
            <Space wrap align="start">
              <Input
                style={{ width: 160 }}
                placeholder={t('loans.editor.fieldKey')}
                value={field.key}
                maxLength={32}
                onChange={(event) => setField(index, { key: event.target.value })}
                data-testid={`loan-product-field-key-${index}`}
              />
              <Select
                style={{ width: 130 }}
                value={field.type}
                onChange={(type: LoanFieldType) =>
                  setField(index, {
                    type,
                    options:
                      type === 'choice' && field.options.length === 0
                        ? [{ value: '', label: {} }]
                        : field.options,
                  })
                }
                options={LOAN_FIELD_TYPES.map((type) => ({
                  value: type,
                  label: t(`loans.editor.types.${type}`),
                  disabled:
                    type === 'image' &&
                    field.type !== 'image' &&
                    images >= LOAN_LIMITS.imageFieldsMax,
                }))}
                data-testid={`loan-product-field-type-${index}`}
              />
              <Input
                style={{ width: 260 }}
                placeholder={t('loans.editor.fieldLabel', { key: field.key || '…' })}
                value={field.label.en ?? ''}
                maxLength={LOAN_LIMITS.fieldLabelMax}
                onChange={(event) =>
                  setField(index, { label: { ...field.label, en: event.target.value } })
                }
                data-testid={`loan-product-field-label-${index}`}
              />
              <Checkbox
                checked={field.required}
                onChange={(event) => setField(index, { required: event.target.checked })}
                data-testid={`loan-product-field-required-${index}`}
              >
                {t('loans.editor.required')}
              </Checkbox>
              <Button
                icon={<DeleteOutlined />}
                aria-label={t('loans.editor.removeField')}
                onClick={() => set({ fields: draft.fields.filter((_, at) => at !== index) })}
              />
            </Space>
            {field.type === 'choice' && (
              <div style={{ marginTop: 8 }}>
                <Typography.Text type="secondary">{t('loans.editor.choices')}</Typography.Text>
                {field.options.map((option, choice) => (
                  <Space key={choice} wrap style={{ display: 'flex', marginTop: 6 }}>
                    <Input
                      style={{ width: 160 }}
                      value={option.value}
                      maxLength={64}
                      onChange={(event) => setChoice(index, choice, { value: event.target.value })}
                      data-testid={`loan-product-choice-value-${index}-${choice}`}
                    />
                    <Input
                      style={{ width: 260 }}
                      value={option.label.en ?? ''}
                      maxLength={LOAN_LIMITS.fieldLabelMax}
                      onChange={(event) =>
                        setChoice(index, choice, {
                          label: { ...option.label, en: event.target.value },
                        })
                      }
                      data-testid={`loan-product-choice-label-${index}-${choice}`}
                    />
                    {field.options.length > 1 && (
                      <Button
                        icon={<DeleteOutlined />}
                        aria-label={t('loans.editor.removeField')}
                        onClick={() =>
                          setField(index, {
                            options: field.options.filter((_, where) => where !== choice),
                          })
                        }
                      />
                    )}
                  </Space>
                ))}
                {field.options.length < LOAN_LIMITS.choicesMax && (
                  <Button
                    size="small"
                    style={{ marginTop: 6 }}
                    icon={<PlusOutlined />}
                    onClick={() =>
                      setField(index, { options: [...field.options, { value: '', label: {} }] })
                    }
                    data-testid={`loan-product-choice-add-${index}`}
                  >
                    {t('loans.editor.addChoice')}
                  </Button>
                )}
              </div>
            )}
          </div>
        ))}
        {draft.fields.length < LOAN_LIMITS.fieldsMax && (
          <div style={{ margin: '8px 0 16px' }}>
            <Button
              icon={<PlusOutlined />}
              onClick={() =>
                set({
                  fields: [
                    ...draft.fields,
                    { key: '', type: 'text', label: {}, required: true, options: [] },
                  ],
                })
              }
              data-testid="loan-product-field-add"
            >
              {t('loans.editor.addField')}
            </Button>
          </div>
        )}

        <Typography.Paragraph type="secondary">
          {t('loans.editor.languagesHelp')}
        </Typography.Paragraph>
        <LanguageTabs
          active={language}
          onChange={setLanguage}
          testId="loan-product"
          written={written}
        >
          {(item, dir) => (
            <>
              <Form.Item label={t('loans.products.name')} required={item.key === 'en'}>
                <Input
                  value={draft.name[item.key] ?? ''}
                  maxLength={LOAN_LIMITS.nameMax}
                  dir={dir}
                  onChange={(event) =>
                    set({ name: { ...draft.name, [item.key]: event.target.value } })
                  }
                  data-testid={`loan-product-name-${item.key}`}
                />
              </Form.Item>
              <Form.Item label={t('loans.editor.description')}>
                <Input.TextArea
                  value={draft.description[item.key] ?? ''}
                  maxLength={LOAN_LIMITS.descriptionMax}
                  rows={3}
                  dir={dir}
                  onChange={(event) =>
                    set({ description: { ...draft.description, [item.key]: event.target.value } })
                  }
                  data-testid={`loan-product-description-${item.key}`}
                />
              </Form.Item>
              {draft.fields.map((field, index) => (
                <div key={index}>
                  <Form.Item
                    label={t('loans.editor.fieldLabel', { key: field.key || index + 1 })}
                    required={item.key === 'en'}
                  >
                    <Input
                      value={field.label[item.key] ?? ''}
                      maxLength={LOAN_LIMITS.fieldLabelMax}
                      dir={dir}
                      onChange={(event) =>
                        setField(index, {
                          label: { ...field.label, [item.key]: event.target.value },
                        })
                      }
                      data-testid={`loan-product-field-${index}-label-${item.key}`}
                    />
                  </Form.Item>
                  {field.type === 'choice' &&
                    field.options.map((option, choice) => (
                      <Form.Item
                        key={choice}
                        label={t('loans.editor.choiceLabel', {
                          key: field.key || index + 1,
                          value: option.value || choice + 1,
                        })}
                      >
                        <Input
                          value={option.label[item.key] ?? ''}
                          maxLength={LOAN_LIMITS.fieldLabelMax}
                          dir={dir}
                          onChange={(event) =>
                            setChoice(index, choice, {
                              label: { ...option.label, [item.key]: event.target.value },
                            })
                          }
                        />
                      </Form.Item>
                    ))}
                </div>
              ))}
            </>
          )}
        </LanguageTabs>
      </Form>
    </EditorDrawer>
  );
}
