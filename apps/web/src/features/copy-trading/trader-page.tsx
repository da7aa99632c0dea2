/**
 * A lead trader's profile (/pages/followOrder/trader?traderId=…): their title and description,
 * terms (profit share, copy amounts, followers), the statistics of each window (ROI, P&L, win
 * rate, trades, average holding time, maximum drawdown) and the equity curve — every one computed
 * by the server from the trader's own closed live contract positions —, the followers' total P&L
 * and the assets under copy, the current positions (shown only once opened the configured minutes
 * ago) and the closed ones; then Follow, or the way to the user's copy settings.
 */
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from 'antd-mobile';
import { TRADER_STATUS } from '@bourse/shared';
import { ApiError } from '../../api/client';
import { ChoiceRow } from '../../components/choice-row';
import { PageHeader } from '../../components/page-header';
import { RecordList, useRecordPages } from '../../components/record-list';
import { EmptyState, ErrorState, ListSkeleton, Num } from '../../components/status-views';
import { useUser } from '../../hooks/use-user';
import { useTranslation } from '../../i18n/react';
import { currentHref, navigateTo } from '../../lib/navigation';
import {
  copyKeys,
  fetchTraderPositions,
  useTrader,
  type CopyPeriod,
  type TraderDetail,
  type TraderPosition,
} from './api';
import {
  Avatar,
  Line,
  PERIOD_KEY,
  PERIODS,
  Stat,
  Toned,
  TraderStatusTag,
  amountText,
  holdText,
  pnlText,
  timeText,
  figureMessage,
} from './copy-parts';
import { EquityChart } from './equity-chart';
import { fractionPercent, shownPercent, signedPercent } from './figures';

function WindowStats({ trader }: { trader: TraderDetail }) {
  const { t } = useTranslation();
  const [period, setPeriod] = useState<CopyPeriod>('30');
  const stats = trader.windows.find((window) => window.period === period);
  return (
    <section className="card stack" data-testid="copy-trader-stats">
      <h2 className="section-title ct-section-title">{t('copy_statistics')}</h2>
      <ChoiceRow
        tabs
        className="market-tabs ct-tabs"
        label={t('copy_period')}
        options={PERIODS}
        value={period}
        onChange={setPeriod}
        text={(value) => t(PERIOD_KEY[value])}
        optionTestId="copy-stats-period"
      />
      {stats && (
        <div className="ct-stats" role="tabpanel" data-testid={`copy-stats-${period}`}>
          <Stat label={t('copy_roi')}>
            <Toned value={shownPercent(stats.roi)} testId="copy-stats-roi">
              {signedPercent(stats.roi)}
            </Toned>
          </Stat>
          <Stat label={t('copy_pnl')}>
            <Toned value={stats.pnl} testId="copy-stats-pnl">
              {pnlText(stats.pnl, trader.currency)}
            </Toned>
          </Stat>
          <Stat label={t('copy_winRate')} end>
            <Num testId="copy-stats-win">{fractionPercent(stats.winRate)}</Num>
          </Stat>
          <Stat label={t('copy_trades')}>
            <Num testId="copy-stats-trades">{stats.trades}</Num>
          </Stat>
          <Stat label={t('copy_avgHold')}>
            <span data-testid="copy-stats-hold">{holdText(stats.avgHoldSeconds)}</span>
          </Stat>
          <Stat label={t('copy_maxDrawdown')} end>
            <Num testId="copy-stats-drawdown">{fractionPercent(stats.maxDrawdown)}</Num>
          </Stat>
        </div>
      )}
      <EquityChart points={trader.curve} />
      <p className="ct-note">{t('copy_statsNote')}</p>
    </section>
  );
}

function PositionRow({ position }: { position: TraderPosition }) {
  const { t } = useTranslation();
  const closed = position.status === 2;
  const long = position.orderDirection === 1;
  return (
    <li className="ct-position" data-testid={`copy-position-${position.id}`}>
      <div className="ct-position-head">
        <strong>{position.productName || position.productCode}</strong>
        <span className={long ? 'ct-long' : 'ct-short'}>
          {t(long ? 'copy_long' : 'copy_short')}
        </span>
        <Num className="list-tag">{`${position.leverage}x`}</Num>
        <span className="spacer" />
        {closed && (
          <Toned value={position.pnl}>{pnlText(position.pnl, position.currencyName)}</Toned>
        )}
      </div>
      <Line label={t('copy_entryPrice')} value={position.entryPrice ?? '- -'} />
      {closed && <Line label={t('copy_exitPrice')} value={position.exitPrice ?? '- -'} />}
      <Line label={t('copy_margin')} value={amountText(position.margin, position.currencyName)} />
      {closed && position.pnlRate !== null && (
        <Line
          label={t('copy_pnlRate')}
          value={
            <Toned value={shownPercent(position.pnlRate)}>{signedPercent(position.pnlRate)}</Toned>
          }
          number={false}
        />
      )}
      <Line label={t('copy_openTime')} value={timeText(position.openTime)} />
      {closed && <Line label={t('copy_closeTime')} value={timeText(position.closeTime)} />}
    </li>
  );
}

/** 'all' stands for the current positions (the record list's first filter). */
const POSITION_TABS = ['all', 'closed'] as const;
const POSITION_TAB_KEY = { all: 'copy_currentPositions', closed: 'copy_closedPositions' };

function Positions({ trader }: { trader: TraderDetail }) {
  const { t } = useTranslation();
  const list = useRecordPages<TraderPosition, 'closed'>(
    [...copyKeys.trader(trader.traderId), 'positions'],
    (page, filter) =>
      fetchTraderPositions(trader.traderId, filter === 'closed' ? 'closed' : 'open', page),
  );
  const current = list.filter === 'all';
  return (
    <section className="card stack" data-testid="copy-trader-positions">
      {/* Tabs of the card itself: the record screens' tabs stay in view, these scroll with it. */}
      <ChoiceRow
        tabs
        className="market-tabs ct-tabs"
        label={t('copy_currentPositions')}
        options={POSITION_TABS}
        value={list.filter}
        onChange={list.setFilter}
        text={(value) => t(POSITION_TAB_KEY[value])}
        optionTestId="copy-positions"
      />
      {current && (
        <p className="ct-note" data-testid="copy-positions-delay">
          {figureMessage(t('copy_delayNote'), [trader.positionDelayMinutes])}
        </p>
      )}
      <div role="tabpanel">
        <RecordList
          list={list}
          testId="copy-positions-list"
          empty={{
            compact: true,
            title: t(current ? 'copy_noCurrent' : 'copy_noClosed'),
            testId: 'copy-positions-empty',
          }}
        >
          <ul className="card-items ct-positions">
            {list.rows.map((position) => (
              <PositionRow key={position.id} position={position} />
            ))}
          </ul>
        </RecordList>
      </div>
    </section>
  );
}

function FollowAction({ trader }: { trader: TraderDetail }) {
  const { t } = useTranslation();
  const { user, signedIn } = useUser();
  if (signedIn && user?.id === trader.traderId)
    return (
      <Button
        block
        fill="outline"
        data-testid="copy-own-profile"
        onClick={() => navigateTo('copyLead')}
      >
        {t('copy_ownProfile')}
      </Button>
    );
  if (trader.myRelationId !== null)
    return (
      <Button
        block
        color="primary"
        fill="outline"
        data-testid="copy-edit-follow"
        onClick={() =>
          navigateTo('copyFollow', { traderId: trader.traderId, relationId: trader.myRelationId })
        }
      >
        {t('copy_editSettings')}
      </Button>
    );
  if (trader.status !== TRADER_STATUS.active)
    return (
      <Button block disabled data-testid="copy-follow">
        {t('copy_suspendedNoFollow')}
      </Button>
    );
  const full = trader.followers >= trader.maxFollowers;
  return (
    <Button
      block
      color="primary"
      disabled={full}
      data-testid="copy-follow"
      onClick={() =>
        signedIn
          ? navigateTo('copyFollow', { traderId: trader.traderId })
          : navigateTo('login', { redirect: currentHref() })
      }
    >
      {t(full ? 'copy_followersFull' : signedIn ? 'copy_follow' : 'copy_signInToFollow')}
    </Button>
  );
}

function TraderProfile({ trader }: { trader: TraderDetail }) {
  const { t } = useTranslation();
  return (
    <>
      <div className="card-list">
        <section className="card stack" data-testid="copy-trader-profile">
          <div className="ct-card-head">
            <Avatar name={trader.nickName} src={trader.avatar} size={52} />
            <div className="ct-names">
              <strong className="ct-name" data-testid="copy-trader-name">
                {trader.nickName}
              </strong>
              {trader.title && <span className="ct-title">{trader.title}</span>}
            </div>
            <TraderStatusTag status={trader.status} />
          </div>
          {trader.description && <p className="ct-description">{trader.description}</p>}
          <div className="ct-stats">
            <Stat label={t('copy_followersNow')}>
              <Num testId="copy-trader-followers">
                {trader.followers}/{trader.maxFollowers}
              </Num>
            </Stat>
            <Stat label={t('copy_followersTotal')}>
              <Num>{trader.followersTotal}</Num>
            </Stat>
            <Stat label={t('copy_shareRate')} end>
              <Num testId="copy-trader-rate">{fractionPercent(trader.profitShareRate)}</Num>
            </Stat>
          </div>
          <div className="ct-terms">
            <Line
              label={t('copy_followersPnl')}
              value={
                <Toned value={trader.followersPnl}>
                  {pnlText(trader.followersPnl, trader.currency)}
                </Toned>
              }
              number={false}
              testId="copy-trader-followers-pnl"
            />
            <Line
              label={t('copy_assetsUnderCopy')}
              value={amountText(trader.assetsUnderCopy, trader.currency)}
              testId="copy-trader-aum"
            />
            <Line
              label={t('copy_copyAmounts')}
              value={
                trader.maxCopyAmount === null
                  ? figureMessage(t('copy_fromAmount'), [
                      amountText(trader.minCopyAmount, trader.currency),
                    ])
                  : `${amountText(trader.minCopyAmount, trader.currency)} – ${amountText(trader.maxCopyAmount, trader.currency)}`
              }
            />
            <Line label={t('copy_leadingSince')} value={timeText(trader.approvedAt)} />
          </div>
        </section>
        <WindowStats trader={trader} />
        <Positions trader={trader} />
      </div>
      <div className="ct-actions">
        <FollowAction trader={trader} />
      </div>
    </>
  );
}

/** No such lead trader (the server's answer): said as such, not as a failed connection. */
function missing(error: unknown): boolean {
  return error instanceof ApiError && error.msg === 'hint_copyTraderNotFound';
}

export default function TraderPage() {
  const { t } = useTranslation();
  const { signedIn } = useUser();
  const [search] = useSearchParams();
  const traderId = Number(search.get('traderId'));
  const trader = useTrader(traderId, signedIn);
  return (
    <div className="page" data-testid="copy-trader-page">
      <PageHeader title={t('copy_traderTitle')} />
      {trader.isPending && trader.fetchStatus !== 'idle' ? (
        <ListSkeleton rows={4} />
      ) : trader.isError && !missing(trader.error) ? (
        <ErrorState onRetry={() => void trader.refetch()} />
      ) : trader.data ? (
        <TraderProfile trader={trader.data} />
      ) : (
        <EmptyState title={t('copy_traderMissing')} testId="copy-trader-missing" />
      )}
    </div>
  );
}
