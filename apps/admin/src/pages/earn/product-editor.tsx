/**
 * The drawer an earn product is written in: its kind (fixed once created), currency, term (none:
 * flexible, staking only), the one published daily rate and an optional schedule of rates by
 * amount, the bounds per order, capacity, open orders per user, identity level, how interest is
 * paid, compounding (staking), the early-redemption penalty per day left, whether orders wait for
 * review, its image and its name and description in the 19 languages (English first: the others
 * fall back to it). A change applies to orders placed from then on: open orders keep their terms.
 */
import { useState } from 'react';
import {
  Button,
  Checkbox,
  Form,
  Input,
  InputNumber,
  Select,
  Space,
  Switch,
  Typography,
  Upload,
} from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  EARN_LIMITS,
  consoleEarnApi,
  type ConsoleEarnProduct,
  type EarnKind,
  type EarnPayout,
} from '@bourse/shared';
import { api } from '../../api';
import { EditorDrawer, useEditorSave } from '../../components/editor-drawer';
import { LanguageTabs } from '../../components/language-tabs';
import { useCurrencies } from '../../components/settings/parts';

interface TierDraft {
  minAmount: string;
  dailyRate: string;
}

interface Draft {
  kind: EarnKind;
  name: Record<string, string>;
  description: Record<string, string>;
  currencyId: number;
  termDays: number | null;
  dailyRate: string;
  rateTiers: TierDraft[];
  minAmount: string;
  maxAmount: string;
  capacity: string;
  maxOrdersPerUser: number | null;
  minAuthLevel: number;
  payout: EarnPayout;
  compounding: boolean;
  penaltyRate: string;
  requiresReview: boolean;
  sort: number;
  image?: string;
  removeImage: boolean;
}

function draftOf(product: ConsoleEarnProduct | undefined, kind: EarnKind): Draft {
  return {
    kind: product?.kind ?? kind,
    name: { ...product?.name },
    description: { ...product?.description },
    currencyId: product?.currencyId ?? 3,
    termDays: product ? product.termDays : 30,
    dailyRate: product?.dailyRate ?? '',
    rateTiers: product?.rateTiers.map((tier) => ({ ...tier })) ?? [],
    minAmount: product?.minAmount ?? '',
    maxAmount: product?.maxAmount ?? '',
    capacity: product?.capacity ?? '',
    maxOrdersPerUser: product?.maxOrdersPerUser ?? null,
    minAuthLevel: product?.minAuthLevel ?? -1,
    payout: product?.payout ?? 'daily',
    compounding: product?.compounding ?? false,
    penaltyRate: product?.penaltyRate ?? '0',
    requiresReview: product?.requiresReview ?? false,
    sort: product?.sort ?? 0,
    removeImage: false,
  };
}

const keep = (texts: Record<string, string>) =>
  Object.fromEntries(Object.entries(texts).filter(([, value]) => value.trim()));

function readDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

export function ProductEditor({
  product,
  kind,
  onClose,
}: {
  product?: ConsoleEarnProduct;
  /** The kind of a new product. */
  kind: EarnKind;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const currencies = useCurrencies();
  const [draft, setDraft] = useState<Draft>(() => draftOf(product, kind));
  const [language, setLanguage] = useState('en');
  const saving = useEditorSave({ saved: t('earn.saved'), queryKey: ['earn'], onClose });
  const set = (change: Partial<Draft>) => setDraft((current) => ({ ...current, ...change }));
  const setText = (field: 'name' | 'description', lang: string, value: string) =>
    setDraft((current) => ({ ...current, [field]: { ...current[field], [lang]: value } }));
  const setTier = (index: number, change: Partial<TierDraft>) =>
    setDraft((current) => ({
      ...current,
      rateTiers: current.rateTiers.map((tier, at) =>
        at === index ? { ...tier, ...change } : tier,
      ),
    }));
  const staking = draft.kind === 'staking';
  const flexible = draft.termDays === null;
  // Flexible and compounding products credit interest every day.
  const dailyOnly = flexible || draft.compounding;

  const save = async () => {
    const name = keep(draft.name);
    if (!name.en) {
      saving.setFailure(t('earn.englishRequired'));
      setLanguage('en');
      return;
    }
    const description = keep(draft.description);
    await saving.send(() =>
      api.call(consoleEarnApi.saveProduct, {
        id: product?.id,
        kind: draft.kind,
        name,
        description: Object.keys(description).length > 0 ? description : undefined,
        image: draft.image,
        removeImage: draft.removeImage || undefined,
        currencyId: draft.currencyId,
        termDays: draft.termDays ?? undefined,
        dailyRate: draft.dailyRate.trim(),
        rateTiers: draft.rateTiers.map((tier) => ({
          minAmount: tier.minAmount.trim(),
          dailyRate: tier.dailyRate.trim(),
        })),
        minAmount: draft.minAmount.trim(),
        maxAmount: draft.maxAmount.trim() || undefined,
        capacity: draft.capacity.trim() || undefined,
        maxOrdersPerUser: draft.maxOrdersPerUser ?? undefined,
        minAuthLevel: draft.minAuthLevel,
        payout: dailyOnly ? 'daily' : draft.payout,
        compounding: staking && draft.compounding,
        penaltyRate: flexible ? '0' : draft.penaltyRate.trim() || '0',
        requiresReview: draft.requiresReview,
        sort: draft.sort,
      }),
    );
  };

  const written = (lang: string) =>
    Boolean(draft.name[lang]?.trim() || draft.description[lang]?.trim());
  const shownImage = draft.image ?? (!draft.removeImage ? product?.image : undefined);

  return (
    <EditorDrawer
      title={product ? t('earn.editProduct') : t('earn.newProduct')}
      testId="earn-product"
      saveText={t('earn.save')}
      saving={saving}
      onSave={() => void save()}
      onClose={onClose}
    >
      <Form layout="vertical" component="div">
        {product && (
          <Typography.Paragraph type="secondary" data-testid="earn-product-open-orders">
            {t('earn.openOrdersHelp')}
          </Typography.Paragraph>
        )}
        <Space wrap size={16} align="start">
          <Form.Item label={t('earn.field.kind')} required>
            <Select
              style={{ width: 160 }}
              value={draft.kind}
              disabled={Boolean(product)}
              onChange={(value: EarnKind) =>
                set({
                  kind: value,
                  compounding: false,
                  termDays: value === 'financial' && draft.termDays === null ? 30 : draft.termDays,
                })
              }
              options={(['financial', 'staking'] as const).map((value) => ({
                value,
                label: t(`earn.kind.${value}`),
              }))}
              data-testid="earn-product-kind"
            />
          </Form.Item>
          <Form.Item label={t('earn.field.currency')} required>
            <Select
              style={{ width: 140 }}
              value={draft.currencyId}
              onChange={(currencyId: number) => set({ currencyId })}
              options={currencies.options}
              data-testid="earn-product-currency"
            />
          </Form.Item>
          <Form.Item label={t('earn.field.term')} tooltip={t('earn.termHelp')} required={!staking}>
            <Space>
              <InputNumber
                min={1}
                max={EARN_LIMITS.termDaysMax}
                precision={0}
                value={draft.termDays}
                disabled={flexible}
                onChange={(value) => set({ termDays: value ?? 1 })}
                data-testid="earn-product-term"
              />
              {staking && (
                <Checkbox
                  checked={flexible}
                  onChange={(event) =>
                    set({ termDays: event.target.checked ? null : 30, penaltyRate: '0' })
                  }
                  data-testid="earn-product-flexible"
                >
                  {t('earn.flexible')}
                </Checkbox>
              )}
            </Space>
          </Form.Item>
          <Form.Item label={t('earn.field.dailyRate')} tooltip={t('earn.rateHelp')} required>
            <Input
              style={{ width: 140 }}
              value={draft.dailyRate}
              inputMode="decimal"
              placeholder="0.001"
              onChange={(event) => set({ dailyRate: event.target.value })}
              data-testid="earn-product-rate"
            />
          </Form.Item>
        </Space>
        <Space wrap size={16} align="start">
          <Form.Item label={t('earn.field.minAmount')} required>
            <Input
              style={{ width: 140 }}
              value={draft.minAmount}
              inputMode="decimal"
              onChange={(event) => set({ minAmount: event.target.value })}
              data-testid="earn-product-min"
            />
          </Form.Item>
          <Form.Item label={t('earn.field.maxAmount')} tooltip={t('earn.optionalHelp')}>
            <Input
              style={{ width: 140 }}
              value={draft.maxAmount}
              inputMode="decimal"
              onChange={(event) => set({ maxAmount: event.target.value })}
              data-testid="earn-product-max"
            />
          </Form.Item>
          <Form.Item label={t('earn.field.capacity')} tooltip={t('earn.capacityHelp')}>
            <Input
              style={{ width: 160 }}
              value={draft.capacity}
              inputMode="decimal"
              onChange={(event) => set({ capacity: event.target.value })}
              data-testid="earn-product-capacity"
            />
          </Form.Item>
          <Form.Item label={t('earn.field.ordersPerUser')} tooltip={t('earn.optionalHelp')}>
            <InputNumber
              min={1}
              max={EARN_LIMITS.ordersPerUserMax}
              precision={0}
              value={draft.maxOrdersPerUser}
              onChange={(value) => set({ maxOrdersPerUser: value ?? null })}
              data-testid="earn-product-per-user"
            />
          </Form.Item>
        </Space>
        <Space wrap size={16} align="start">
          <Form.Item label={t('earn.field.level')}>
            <Select
              style={{ width: 180 }}
              value={draft.minAuthLevel}
              onChange={(minAuthLevel: number) => set({ minAuthLevel })}
              options={(
                [
                  [-1, 'earn.level.0'],
                  [0, 'earn.level.1'],
                  [1, 'earn.level.2'],
                ] as const
              ).map(([value, key]) => ({ value, label: t(key) }))}
              data-testid="earn-product-level"
            />
          </Form.Item>
          <Form.Item label={t('earn.field.payout')}>
            <Select
              style={{ width: 200 }}
              value={dailyOnly ? 'daily' : draft.payout}
              disabled={dailyOnly}
              onChange={(payout: EarnPayout) => set({ payout })}
              options={(['daily', 'maturity'] as const).map((value) => ({
                value,
                label: t(`earn.payout.${value}`),
              }))}
              data-testid="earn-product-payout"
            />
          </Form.Item>
          <Form.Item label={t('earn.field.penaltyRate')} tooltip={t('earn.penaltyHelp')}>
            <Input
              style={{ width: 140 }}
              value={flexible ? '0' : draft.penaltyRate}
              disabled={flexible}
              inputMode="decimal"
              onChange={(event) => set({ penaltyRate: event.target.value })}
              data-testid="earn-product-penalty"
            />
          </Form.Item>
          <Form.Item label={t('earn.field.sort')}>
            <InputNumber
              min={0}
              precision={0}
              value={draft.sort}
              onChange={(value) => set({ sort: value ?? 0 })}
            />
          </Form.Item>
        </Space>
        <Space wrap size={24} align="start">
          {staking && (
            <Form.Item label={t('earn.field.compounding')} tooltip={t('earn.compoundingHelp')}>
              <Switch
                checked={draft.compounding}
                onChange={(compounding) => set({ compounding })}
                data-testid="earn-product-compounding"
              />
            </Form.Item>
          )}
          <Form.Item label={t('earn.field.review')} tooltip={t('earn.reviewHelp')}>
            <Switch
              checked={draft.requiresReview}
              onChange={(requiresReview) => set({ requiresReview })}
              data-testid="earn-product-review"
            />
          </Form.Item>
          <Form.Item label={t('earn.field.image')} extra={t('earn.imageHelp')}>
            <Space align="center" wrap>
              {shownImage && (
                <img
                  src={shownImage}
                  alt=""
                  style={{ height: 48, borderRadius: 6, objectFit: 'cover' }}
                  data-testid="earn-product-image-preview"
                />
              )}
              <Upload
                accept="image/jpeg,image/png"
                showUploadList={false}
                beforeUpload={async (file) => {
                  set({ image: await readDataUrl(file), removeImage: false });
                  return false;
                }}
              >
                <Button data-testid="earn-product-image-pick">{t('earn.pickImage')}</Button>
              </Upload>
              {product?.image && (
                <Checkbox
                  checked={draft.removeImage}
                  onChange={(event) => set({ removeImage: event.target.checked, image: undefined })}
                >
                  {t('earn.removeImage')}
                </Checkbox>
              )}
            </Space>
          </Form.Item>
        </Space>
        <Typography.Title level={5}>{t('earn.field.tiers')}</Typography.Title>
        <Typography.Paragraph type="secondary">{t('earn.tiersHelp')}</Typography.Paragraph>
        {draft.rateTiers.map((tier, index) => (
          <Space key={index} wrap align="start" data-testid={`earn-product-tier-${index}`}>
            <Input
              style={{ width: 180 }}
              addonBefore={t('earn.tierFrom')}
              value={tier.minAmount}
              inputMode="decimal"
              onChange={(event) => setTier(index, { minAmount: event.target.value })}
              data-testid={`earn-product-tier-min-${index}`}
            />
            <Input
              style={{ width: 180 }}
              addonBefore={t('earn.field.dailyRate')}
              value={tier.dailyRate}
              inputMode="decimal"
              onChange={(event) => setTier(index, { dailyRate: event.target.value })}
              data-testid={`earn-product-tier-rate-${index}`}
            />
            <Button
              icon={<DeleteOutlined />}
              aria-label={t('earn.removeTier')}
              onClick={() => set({ rateTiers: draft.rateTiers.filter((_, at) => at !== index) })}
            />
          </Space>
        ))}
        {draft.rateTiers.length < EARN_LIMITS.tiersMax && (
          <div style={{ margin: '8px 0 16px' }}>
            <Button
              icon={<PlusOutlined />}
              onClick={() =>
                set({ rateTiers: [...draft.rateTiers, { minAmount: '', dailyRate: '' }] })
              }
              data-testid="earn-product-tier-add"
            >
              {t('earn.addTier')}
            </Button>
          </div>
        )}
        <Typography.Paragraph type="secondary">{t('earn.languagesHelp')}</Typography.Paragraph>
        <LanguageTabs
          active={language}
          onChange={setLanguage}
          testId="earn-product"
          written={written}
        >
          {(item, dir) => (
            <>
              <Form.Item label={t('earn.field.name')} required={item.key === 'en'}>
                <Input
                  value={draft.name[item.key] ?? ''}
                  maxLength={EARN_LIMITS.nameMax}
                  dir={dir}
                  onChange={(event) => setText('name', item.key, event.target.value)}
                  data-testid={`earn-product-name-${item.key}`}
                />
              </Form.Item>
              <Form.Item label={t('earn.field.description')}>
                <Input.TextArea
                  value={draft.description[item.key] ?? ''}
                  maxLength={EARN_LIMITS.descriptionMax}
                  rows={3}
                  dir={dir}
                  onChange={(event) => setText('description', item.key, event.target.value)}
                  data-testid={`earn-product-description-${item.key}`}
                />
              </Form.Item>
            </>
          )}
        </LanguageTabs>
      </Form>
    </EditorDrawer>
  );
}
