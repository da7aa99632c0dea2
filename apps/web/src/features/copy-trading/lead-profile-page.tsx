/**
 * A lead trader's profile editor (/pages/followOrder/leadProfile): a title and a description per
 * language (all optional; once any is written, English is needed, as the server says), the
 * profit-share rate within the console's maximum (new follows take it; existing relations keep
 * theirs), the copy amounts and the most followers (within the console's cap).
 */
import { useState } from 'react';
import { Button, Input, TextArea } from 'antd-mobile';
import { useQueryClient } from '@tanstack/react-query';
import {
  COPY_LIMITS,
  LANGUAGES,
  div,
  gt,
  mul,
  normalize,
  parseDecimal,
  type LanguageKey,
} from '@bourse/shared';
import { AmountField } from '../../components/amount-field';
import { ChoiceRow } from '../../components/choice-row';
import { Field } from '../../components/field';
import { SignedInScreen } from '../../components/signed-in-screen';
import { EmptyState, ErrorState, ListSkeleton } from '../../components/status-views';
import { useSubmit } from '../../hooks/use-submit';
import { currentLocale } from '../../i18n';
import { useTranslation } from '../../i18n/react';
import { navigateTo } from '../../lib/navigation';
import { showToast } from '../../lib/toast';
import { copyKeys, saveLeadProfile, useLeadStatus, type LeadProfile, type LeadStatus } from './api';
import { tradeScale, figureMessage } from './copy-parts';
import { fractionPercent } from './figures';

type Texts = Partial<Record<LanguageKey, string>>;

/** Only the languages with text. */
function filled(texts: Texts): Record<string, string> {
  return Object.fromEntries(Object.entries(texts).filter(([, value]) => value?.trim())) as Record<
    string,
    string
  >;
}

function ProfileForm({ trader, status }: { trader: LeadProfile; status: LeadStatus }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const scale = tradeScale();
  const [language, setLanguage] = useState<LanguageKey>(() =>
    LANGUAGES.some((entry) => entry.key === currentLocale()) ? currentLocale() : 'en',
  );
  const [titles, setTitles] = useState<Texts>(trader.title);
  const [descriptions, setDescriptions] = useState<Texts>(trader.description);
  const [rate, setRate] = useState(normalize(mul(trader.profitShareRate, '100')));
  const [minAmount, setMinAmount] = useState(normalize(trader.minCopyAmount));
  const [maxAmount, setMaxAmount] = useState(
    trader.maxCopyAmount === null ? '' : normalize(trader.maxCopyAmount),
  );
  const [maxFollowers, setMaxFollowers] = useState(String(trader.maxFollowers));
  const [touched, setTouched] = useState(false);

  const maxRatePercent = normalize(mul(status.maxProfitShareRate, '100'));
  const problems: Record<string, string> = {};
  const rateParsed = parseDecimal(rate.trim(), { sign: 'nonNegative', maxScale: 2 });
  if (!rateParsed.ok || gt(rateParsed.value, maxRatePercent))
    problems.rate = figureMessage(t('copy_rateRange'), [`${maxRatePercent}%`]);
  const minParsed = parseDecimal(minAmount.trim(), { sign: 'positive', maxScale: scale });
  if (!minParsed.ok) problems.min = t('copy_invalidNumber');
  const maxParsed = maxAmount.trim()
    ? parseDecimal(maxAmount.trim(), { sign: 'positive', maxScale: scale })
    : undefined;
  if (maxParsed && !maxParsed.ok) problems.max = t('copy_invalidNumber');
  else if (maxParsed?.ok && minParsed.ok && gt(minParsed.value, maxParsed.value))
    problems.max = t('hint_copyMaxBelowMin');
  const cap = trader.maxFollowersCap ?? COPY_LIMITS.maxFollowersMax;
  const followers = Number(maxFollowers);
  if (!/^[1-9][0-9]*$/.test(maxFollowers) || followers > cap)
    problems.followers = figureMessage(t('copy_followersRange'), [cap]);
  const titleTexts = filled(titles);
  const descriptionTexts = filled(descriptions);
  const needsEnglish =
    (Object.keys(titleTexts).length > 0 && !titleTexts.en) ||
    (Object.keys(descriptionTexts).length > 0 && !descriptionTexts.en);
  if (needsEnglish) problems.texts = t('hint_langEnglishRequired');
  const shown = (field: string) => (touched ? problems[field] : undefined);

  const save = useSubmit(async () => {
    if (Object.keys(problems).length > 0 || !rateParsed.ok || !minParsed.ok) return;
    await saveLeadProfile({
      title: titleTexts,
      description: descriptionTexts,
      profitShareRate: normalize(div(rateParsed.value, '100', COPY_LIMITS.rateScale)),
      minCopyAmount: minParsed.value,
      maxCopyAmount: maxParsed?.ok ? maxParsed.value : undefined,
      maxFollowers: followers,
    });
    showToast(t('copy_saved'));
    await queryClient.invalidateQueries({ queryKey: copyKeys.lead });
    void queryClient.invalidateQueries({ queryKey: copyKeys.traders });
    navigateTo('copyLead');
  });

  return (
    <div className="stack ct-form" data-testid="copy-lead-profile-form">
      <section className="card stack">
        <h2 className="section-title ct-section-title">{t('copy_texts')}</h2>
        <p className="ct-note">{t('copy_textsNote')}</p>
        <ChoiceRow
          tabs
          className="market-tabs ct-languages"
          label={t('copy_language')}
          options={LANGUAGES.map((entry) => entry.key)}
          value={language}
          onChange={setLanguage}
          text={(key) => LANGUAGES.find((entry) => entry.key === key)?.name ?? key}
          optionTestId="copy-lead-language"
        />
        <Field label={t('copy_profileTitle')} htmlFor="copy-lead-title">
          <Input
            id="copy-lead-title"
            maxLength={COPY_LIMITS.titleMax}
            value={titles[language] ?? ''}
            onChange={(value) => setTitles((current) => ({ ...current, [language]: value }))}
          />
        </Field>
        <Field
          label={t('copy_profileDescription')}
          htmlFor="copy-lead-description"
          error={shown('texts')}
        >
          <TextArea
            id="copy-lead-description"
            className="ct-textarea"
            rows={4}
            maxLength={COPY_LIMITS.descriptionMax}
            value={descriptions[language] ?? ''}
            onChange={(value) => setDescriptions((current) => ({ ...current, [language]: value }))}
          />
        </Field>
      </section>
      <section className="card stack">
        <AmountField
          label={figureMessage(t('copy_rateWithin'), [`${maxRatePercent}%`])}
          id="copy-lead-rate"
          value={rate}
          error={shown('rate')}
          onChange={setRate}
        >
          <span className="ct-unit">%</span>
        </AmountField>
        <p className="ct-note">{t('copy_rateNote')}</p>
        <AmountField
          label={t('copy_minCopyAmount')}
          id="copy-lead-min"
          value={minAmount}
          error={shown('min')}
          onChange={setMinAmount}
        >
          <span className="ct-unit">{trader.currency}</span>
        </AmountField>
        <AmountField
          label={t('copy_maxCopyAmount')}
          id="copy-lead-max"
          placeholder={t('copy_noMaximum')}
          value={maxAmount}
          error={shown('max')}
          onChange={setMaxAmount}
        >
          <span className="ct-unit">{trader.currency}</span>
        </AmountField>
        <Field
          label={figureMessage(t('copy_maxFollowersWithin'), [cap])}
          htmlFor="copy-lead-followers"
          error={shown('followers')}
        >
          <Input
            id="copy-lead-followers"
            inputMode="numeric"
            autoComplete="off"
            maxLength={6}
            value={maxFollowers}
            onChange={(value) => setMaxFollowers(value.replace(/[^0-9]/g, ''))}
          />
        </Field>
        <p className="ct-note">
          {figureMessage(t('copy_currentRate'), [fractionPercent(trader.profitShareRate)])}
        </p>
      </section>
      <Button
        block
        color="primary"
        loading={save.pending}
        data-testid="copy-lead-save"
        onClick={() => {
          setTouched(true);
          void save.submit();
        }}
      >
        {t('copy_saveProfile')}
      </Button>
    </div>
  );
}

export default function LeadProfilePage() {
  const { t } = useTranslation();
  const status = useLeadStatus();
  return (
    <SignedInScreen testId="copy-lead-profile-page" title={t('copy_editProfile')}>
      {status.isPending ? (
        <ListSkeleton rows={4} />
      ) : status.isError ? (
        <ErrorState onRetry={() => void status.refetch()} />
      ) : status.data.trader ? (
        <ProfileForm trader={status.data.trader} status={status.data} />
      ) : (
        <EmptyState
          title={t('copy_notLeader')}
          testId="copy-lead-profile-none"
          action={{ label: t('copy_apply'), onClick: () => navigateTo('copyLead') }}
        />
      )}
    </SignedInScreen>
  );
}
