/**
 * Copy trading (/pages/followOrder/followOrder): lead traders sorted by ROI, P&L, followers or
 * drawdown (smallest first) over 7, 30, 90 days or since the start — every figure computed by the
 * server from the trader's own closed live contract positions — each with a small curve of the
 * period; the ways to the user's copies, settlements and to leading. `?sort=` and `?period=` open
 * a choice directly.
 */
import { useSearchParams } from 'react-router';
import { Button } from 'antd-mobile';
import { FileOutline, TeamOutline, UserAddOutline } from 'antd-mobile-icons';
import { COPY_PERIOD, COPY_SORT, formatMessage } from '@bourse/shared';
import { ChoiceRow } from '../../components/choice-row';
import { PageHeader } from '../../components/page-header';
import { RecordList, useRecordPages } from '../../components/record-list';
import { Num } from '../../components/status-views';
import { useUser } from '../../hooks/use-user';
import { useTranslation } from '../../i18n/react';
import { navigateTo } from '../../lib/navigation';
import {
  copyKeys,
  fetchTraderPage,
  type CopyPeriod,
  type CopySort,
  type TraderSummary,
} from './api';
import {
  Avatar,
  PERIOD_KEY,
  PERIODS,
  SORT_KEY,
  SORTS,
  Spark,
  Stat,
  Toned,
  TraderStatusTag,
  pnlText,
  figureMessage,
} from './copy-parts';
import { fractionPercent, shownPercent, signedPercent } from './figures';

function TraderCard({ trader }: { trader: TraderSummary }) {
  const { t } = useTranslation();
  const id = trader.traderId;
  const stats = trader.stats;
  const open = () => navigateTo('copyTrader', { traderId: id });
  return (
    <li className="card ct-card" data-testid={`copy-trader-${id}`}>
      <div className="ct-card-head">
        <Avatar name={trader.nickName} src={trader.avatar} />
        <div className="ct-names">
          <strong className="ct-name">{trader.nickName}</strong>
          {trader.title && <span className="ct-title">{trader.title}</span>}
        </div>
        <TraderStatusTag status={trader.status} />
        <span className="ct-followers">
          <TeamOutline aria-hidden="true" />{' '}
          <Num testId={`copy-trader-${id}-followers`}>
            {trader.followers}/{trader.maxFollowers}
          </Num>
        </span>
      </div>
      <div className="ct-card-figures">
        <div className="ct-roi">
          <span className="muted">
            {formatMessage(t('copy_roiOf'), [t(PERIOD_KEY[stats.period])])}
          </span>
          <strong>
            <Toned value={shownPercent(stats.roi)} testId={`copy-trader-${id}-roi`}>
              {signedPercent(stats.roi)}
            </Toned>
          </strong>
        </div>
        <Spark points={trader.spark} />
      </div>
      <div className="ct-stats">
        <Stat label={t('copy_pnl')}>
          <Toned value={stats.pnl} testId={`copy-trader-${id}-pnl`}>
            {pnlText(stats.pnl, trader.currency)}
          </Toned>
        </Stat>
        <Stat label={t('copy_winRate')}>
          <Num>{fractionPercent(stats.winRate)}</Num>
        </Stat>
        <Stat label={t('copy_maxDrawdown')} end>
          <Num testId={`copy-trader-${id}-drawdown`}>{fractionPercent(stats.maxDrawdown)}</Num>
        </Stat>
      </div>
      <div className="ct-card-foot">
        <span className="muted ct-note">
          {figureMessage(t('copy_shareRateText'), [fractionPercent(trader.profitShareRate)])}
        </span>
        <span className="spacer" />
        <Button
          size="small"
          color="primary"
          fill={trader.myRelationId === null ? 'solid' : 'outline'}
          data-testid={`copy-trader-${id}-open`}
          onClick={open}
        >
          {t(trader.myRelationId === null ? 'copy_view' : 'copy_following')}
        </Button>
      </div>
    </li>
  );
}

/** The ways to the user's copies, settlements and leading. */
function Entries() {
  const { t } = useTranslation();
  const { signedIn } = useUser();
  if (!signedIn) return null;
  return (
    <nav className="ct-entries" aria-label={t('copy_title')}>
      <button type="button" data-testid="copy-entry-mine" onClick={() => navigateTo('copyMine')}>
        <TeamOutline aria-hidden="true" />
        {t('copy_myCopies')}
      </button>
      <button
        type="button"
        data-testid="copy-entry-settlements"
        onClick={() => navigateTo('copySettlements')}
      >
        <FileOutline aria-hidden="true" />
        {t('copy_mySettlements')}
      </button>
      <button type="button" data-testid="copy-entry-lead" onClick={() => navigateTo('copyLead')}>
        <UserAddOutline aria-hidden="true" />
        {t('copy_lead')}
      </button>
    </nav>
  );
}

function TraderList({ sort, period }: { sort: CopySort; period: CopyPeriod }) {
  const { t } = useTranslation();
  const list = useRecordPages<TraderSummary & { id: number }, string>(
    copyKeys.list(sort, period),
    async (page) => {
      const answer = await fetchTraderPage(page, sort, period);
      return { ...answer, rows: answer.rows.map((row) => ({ ...row, id: row.traderId })) };
    },
  );
  return (
    <RecordList
      list={list}
      className="card-list"
      testId="copy-traders"
      empty={{
        title: t('copy_noTraders'),
        text: t('copy_noTradersText'),
        testId: 'copy-traders-empty',
      }}
    >
      <ul className="card-items">
        {list.rows.map((trader) => (
          <TraderCard key={trader.traderId} trader={trader} />
        ))}
      </ul>
    </RecordList>
  );
}

export default function TraderListPage() {
  const { t } = useTranslation();
  const { signedIn } = useUser();
  const [search, setSearch] = useSearchParams();
  const sort = COPY_SORT.find((entry) => entry === search.get('sort')) ?? 'roi';
  const period = COPY_PERIOD.find((entry) => entry === search.get('period')) ?? '30';
  const choose = (next: { sort?: CopySort; period?: CopyPeriod }) =>
    setSearch({ sort: next.sort ?? sort, period: next.period ?? period }, { replace: true });
  return (
    <div className="page" data-testid="copy-traders-page">
      <PageHeader
        title={t('copy_title')}
        right={
          signedIn && (
            <button
              type="button"
              className="link ct-header-link"
              data-testid="copy-header-mine"
              onClick={() => navigateTo('copyMine')}
            >
              {t('copy_myCopies')}
            </button>
          )
        }
      />
      <p className="ct-intro">{t('copy_intro')}</p>
      <Entries />
      <ChoiceRow
        className="segmented ct-sorts"
        label={t('copy_sortBy')}
        options={SORTS}
        value={sort}
        onChange={(next) => choose({ sort: next })}
        text={(value) => t(SORT_KEY[value])}
        testId="copy-sort"
      />
      <ChoiceRow
        tabs
        className="market-tabs"
        label={t('copy_period')}
        options={PERIODS}
        value={period}
        onChange={(next) => choose({ period: next })}
        text={(value) => t(PERIOD_KEY[value])}
        optionTestId="copy-period"
      />
      <div role="tabpanel">
        <TraderList sort={sort} period={period} />
      </div>
    </div>
  );
}
