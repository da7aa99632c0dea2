/**
 * My team (/pages/team/team): the team's figures for a period (today, 7 or 30 days: members,
 * direct invitees, first deposits, the team's deposits and the commissions earned, per currency),
 * the members of each level paid by the terms in force (masked accounts, join date, whether they
 * deposited; never a balance), the commission records with their source orders, and the rules:
 * the rates in force and how commissions work, with the operator's referral rules page.
 */
import { useMemo, useState } from 'react';
import { Button } from 'antd-mobile';
import { isolateLtr } from '@bourse/shared';
import { ChoiceRow } from '../../components/choice-row';
import { RecordList, useRecordPages } from '../../components/record-list';
import { SignedInScreen } from '../../components/signed-in-screen';
import { ValueSkeleton } from '../../components/status-views';
import { translate } from '../../i18n';
import { useTranslation } from '../../i18n/react';
import { navigateTo } from '../../lib/navigation';
import { percentText } from '../../lib/trade';
import {
  fetchCommissions,
  fetchMembers,
  referralKeys,
  useReferralTerms,
  useTeamDashboard,
  type CommissionRecord,
  type CurrencyAmountRow,
  type TeamMember,
} from './api';
import './referral.css';

const DAY_MS = 86_400_000;
const PERIODS = ['today', '7', '30'] as const;
type Period = (typeof PERIODS)[number];
type Section = 'members' | 'commissions' | 'rules';

function periodStart(period: Period): string {
  const now = Date.now();
  const midnight = new Date();
  midnight.setHours(0, 0, 0, 0);
  const start = period === 'today' ? midnight.getTime() : now - Number(period) * DAY_MS;
  // A minute's precision: the query key stays the same while the screen is open.
  return new Date(Math.floor(start / 60_000) * 60_000).toISOString();
}

function day(iso: string): string {
  const date = new Date(iso);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

function dateTime(iso: string): string {
  const date = new Date(iso);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${day(iso)} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function Amounts({ rows, testId }: { rows: CurrencyAmountRow[]; testId: string }) {
  if (rows.length === 0)
    return (
      <strong className="ref-figure" data-testid={testId}>
        0
      </strong>
    );
  return (
    <strong className="ref-figure" data-testid={testId}>
      {rows.map((row) => (
        <bdi key={row.currencyId} dir="ltr" className="ref-amount">
          {row.amount} {row.currencyName}
        </bdi>
      ))}
    </strong>
  );
}

function Figure({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="ref-cell">
      <span className="muted ref-cell-label">{label}</span>
      {children}
    </div>
  );
}

function Dashboard() {
  const { t } = useTranslation();
  const [period, setPeriod] = useState<Period>('30');
  const startTime = useMemo(() => periodStart(period), [period]);
  const dashboard = useTeamDashboard(startTime);
  const data = dashboard.data;
  const count = (value: number | undefined, testId: string) =>
    data ? (
      <strong className="ref-figure" data-testid={testId}>
        {value}
      </strong>
    ) : (
      <ValueSkeleton />
    );
  return (
    <section className="card ref-dashboard" data-testid="team-dashboard">
      <ChoiceRow
        className="segmented ref-periods"
        label={t('team_period')}
        options={PERIODS}
        value={period}
        onChange={setPeriod}
        text={(value) => t(value === 'today' ? 'team_periodToday' : `team_period${value}`)}
        testId="team-period"
      />
      {data?.frozen && (
        <p className="ref-frozen" data-testid="team-frozen">
          {t('team_frozen')}
        </p>
      )}
      <div className="ref-grid">
        <Figure label={t('team_size')}>{count(data?.teamSize, 'team-size')}</Figure>
        <Figure label={t('team_direct')}>{count(data?.directCount, 'team-direct')}</Figure>
        <Figure label={t('team_firstDeposits')}>
          {count(data?.firstDepositCount, 'team-first-deposits')}
        </Figure>
        <Figure label={t('team_depositsToday')}>
          {data ? (
            <Amounts rows={data.depositsToday} testId="team-deposits-today" />
          ) : (
            <ValueSkeleton />
          )}
        </Figure>
        <Figure label={t('team_depositsPeriod')}>
          {data ? (
            <Amounts rows={data.depositsPeriod} testId="team-deposits-period" />
          ) : (
            <ValueSkeleton />
          )}
        </Figure>
        <Figure label={t('team_commissionPeriod')}>
          {data ? (
            <Amounts rows={data.commissionPeriod} testId="team-commission-period" />
          ) : (
            <ValueSkeleton />
          )}
        </Figure>
        <Figure label={t('team_commissionTotal')}>
          {data ? (
            <Amounts rows={data.commissionTotal} testId="team-commission-total" />
          ) : (
            <ValueSkeleton />
          )}
        </Figure>
      </div>
    </section>
  );
}

function Members({ levels }: { levels: number }) {
  const { t } = useTranslation();
  const [level, setLevel] = useState(1);
  const options = Array.from({ length: levels }, (_, at) => at + 1);
  const list = useRecordPages<TeamMember & { id: string }, number>(
    referralKeys.members(level),
    async (page) => {
      const result = await fetchMembers(level, page);
      return {
        total: result.total,
        rows: result.rows.map((row, at) => ({
          ...row,
          id: `${level}:${page.pageNum}:${at}:${row.joinTime}`,
        })),
      };
    },
  );
  return (
    <>
      <ChoiceRow
        tabs
        className="market-tabs record-tabs"
        label={t('team_members')}
        options={options}
        value={Math.min(level, levels)}
        onChange={setLevel}
        text={(value) => translate('team_level', [value])}
        optionTestId="team-level"
      />
      <RecordList
        list={list}
        className="card ref-rows"
        testId="team-members"
        empty={{ title: t('team_noMembers'), text: t('team_noMembersText') }}
      >
        {list.rows.map((row) => (
          <div key={row.id} className="ref-row" data-testid="team-member">
            <bdi dir="ltr" className="ref-row-main">
              {row.userAccount}
            </bdi>
            <span className={row.firstDeposit ? 'ref-tag ref-tag-on' : 'ref-tag'}>
              {t(row.firstDeposit ? 'team_deposited' : 'team_notDeposited')}
            </span>
            <span className="muted ref-row-sub">
              {translate('team_joined', [isolateLtr(day(row.joinTime))])}
            </span>
          </div>
        ))}
      </RecordList>
    </>
  );
}

function Commissions() {
  const { t } = useTranslation();
  const list = useRecordPages<CommissionRecord, string>(referralKeys.commissions, (page) =>
    fetchCommissions(page),
  );
  return (
    <RecordList
      list={list}
      className="card ref-rows"
      testId="team-commissions"
      empty={{ title: t('team_noCommissions'), text: t('team_noCommissionsText') }}
    >
      {list.rows.map((row) => (
        <div
          key={row.id}
          className="ref-row"
          data-testid="team-commission"
          data-status={row.status}
        >
          <span className="ref-row-main">
            {t(`team_source_${row.sourceType}`)} · {translate('team_level', [row.level])}
          </span>
          <bdi dir="ltr" className="ref-row-amount" data-testid="team-commission-amount">
            +{row.amount} {row.currencyName}
          </bdi>
          <span className="muted ref-row-sub">
            <bdi dir="ltr">{row.memberAccount}</bdi> ·{' '}
            {translate('team_feeRate', [
              isolateLtr(`${row.fee} ${row.currencyName}`),
              isolateLtr(percentText(row.rate)),
            ])}
          </span>
          <span className={row.status === 2 ? 'ref-tag ref-tag-warn' : 'ref-tag ref-tag-on'}>
            {t(row.status === 2 ? 'team_withheld' : 'team_paid')}
          </span>
          <span className="muted ref-row-sub">
            <bdi dir="ltr">{row.orderNo}</bdi> · <bdi dir="ltr">{dateTime(row.createTime)}</bdi>
          </span>
        </div>
      ))}
    </RecordList>
  );
}

export function RatesInForce({ testId = 'team-rates' }: { testId?: string }) {
  const { t } = useTranslation();
  const terms = useReferralTerms().data;
  if (!terms) return <ValueSkeleton />;
  if (terms.rates.length === 0 || terms.rates.every((rate) => Number(rate) === 0))
    return (
      <p data-testid={testId} className="ref-rates">
        {t('team_rulesNone')}
      </p>
    );
  return (
    <div data-testid={testId} className="ref-rates">
      <ul>
        {terms.rates.map((rate, at) => (
          <li key={at} data-testid={`${testId}-${at + 1}`}>
            {translate('team_rulesLevel', [at + 1, isolateLtr(percentText(rate))])}
          </li>
        ))}
      </ul>
      {terms.effectiveFrom && (
        <p className="muted">
          {translate('team_rulesSince', [isolateLtr(dateTime(terms.effectiveFrom))])}
        </p>
      )}
    </div>
  );
}

function Rules() {
  const { t } = useTranslation();
  return (
    <section className="card stack ref-rules" data-testid="team-rules">
      <h3 className="ref-heading">{t('team_rulesRates')}</h3>
      <RatesInForce />
      <p>{t('team_rulesFees')}</p>
      <p>{t('team_rulesSelf')}</p>
      <button
        type="button"
        className="link"
        data-testid="team-rules-page"
        onClick={() => navigateTo('richText', { key: 'referralRules' })}
      >
        {t('team_rulesMore')}
      </button>
    </section>
  );
}

export default function TeamPage() {
  const { t } = useTranslation();
  const [section, setSection] = useState<Section>('members');
  const levels = useReferralTerms().data?.levels ?? 3;
  return (
    <SignedInScreen
      testId="team-page"
      title={t('area_team')}
      right={
        <Button
          size="mini"
          fill="none"
          color="primary"
          data-testid="team-invite"
          onClick={() => navigateTo('share')}
        >
          {t('area_share')}
        </Button>
      }
    >
      <div className="page-body stack ref-team">
        <Dashboard />
        <ChoiceRow
          tabs
          className="market-tabs record-tabs"
          label={t('area_team')}
          options={['members', 'commissions', 'rules'] as const}
          value={section}
          onChange={setSection}
          text={(value) => t(`team_${value}`)}
          optionTestId="team-section"
        />
        {section === 'members' && <Members levels={levels} />}
        {section === 'commissions' && <Commissions />}
        {section === 'rules' && <Rules />}
      </div>
    </SignedInScreen>
  );
}
