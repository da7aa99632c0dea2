/**
 * The user's copy relations (/pages/followOrder/mine), active first: the trader, the settings,
 * the margin the open copies use against the budget, the cumulative net P&L of the copies and the
 * high-water mark above which the trader's share is due, what is owed and what was paid; the ways
 * to the relation's copies and settlements, to change its settings, and to unfollow — choosing to
 * close the copies at market now or keep them as one's own positions (the profit share is settled
 * at once either way).
 */
import { useState } from 'react';
import { Button } from 'antd-mobile';
import { useQueryClient } from '@tanstack/react-query';
import {
  CLOSE_MODE,
  RELATION_STATUS,
  formatMessage,
  isPositive,
  type CloseMode,
} from '@bourse/shared';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { RecordList, RecordTabs, useRecordPages } from '../../components/record-list';
import { SignedInScreen } from '../../components/signed-in-screen';
import { Num } from '../../components/status-views';
import { useSubmit } from '../../hooks/use-submit';
import { useTranslation } from '../../i18n/react';
import { navigateTo } from '../../lib/navigation';
import { showToast } from '../../lib/toast';
import { useRequestId } from '../../lib/trade';
import { copyKeys, fetchRelationPage, unfollow, type CopyRelation } from './api';
import {
  Avatar,
  BookTag,
  Line,
  RelationStatusTag,
  Toned,
  amountText,
  modeText,
  pnlText,
  timeText,
  figureMessage,
} from './copy-parts';
import { fractionPercent } from './figures';

const FILTERS = [
  ['all', 'copy_all'],
  [RELATION_STATUS.active, 'copy_statusActive'],
  [RELATION_STATUS.ended, 'copy_statusEnded'],
] as const;

function UnfollowDialog({
  relation,
  onClose,
}: {
  relation: CopyRelation | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<CloseMode>(CLOSE_MODE.closeNow);
  const request = useRequestId('unfollow');
  const submit = useSubmit(async () => {
    if (!relation) return;
    await unfollow({
      relationId: relation.id,
      closeMode: mode,
      requestId: request.idFor(`${relation.id}:${mode}`),
    });
    request.reset();
    showToast(t('copy_unfollowed'));
    onClose();
    void queryClient.invalidateQueries({ queryKey: copyKeys.relations });
    void queryClient.invalidateQueries({ queryKey: copyKeys.traders });
    void queryClient.invalidateQueries({ queryKey: ['copyCopies'] });
    void queryClient.invalidateQueries({ queryKey: ['copySettlements'] });
    void queryClient.invalidateQueries({ queryKey: ['userBalance'] });
  });
  const choices: [CloseMode, string, string][] = [
    [CLOSE_MODE.closeNow, 'copy_closeNow', 'copy_closeNowText'],
    [CLOSE_MODE.keep, 'copy_keep', 'copy_keepText'],
  ];
  return (
    <ConfirmDialog
      visible={relation !== undefined}
      title={t('copy_unfollow')}
      pending={submit.pending}
      onClose={onClose}
      onConfirm={() => void submit.submit()}
      confirmText={t('copy_unfollowConfirm')}
      content={
        relation && (
          <div className="stack" data-testid="copy-unfollow">
            <span>{formatMessage(t('copy_unfollowText'), [relation.traderName])}</span>
            <div className="ct-choices" role="group" aria-label={t('copy_unfollow')}>
              {choices.map(([value, title, text]) => (
                <button
                  key={value}
                  type="button"
                  className="ct-choice"
                  aria-pressed={mode === value}
                  data-testid={`copy-unfollow-${value}`}
                  onClick={() => setMode(value)}
                >
                  <strong>{t(title)}</strong>
                  <span>{t(text)}</span>
                </button>
              ))}
            </div>
            <p className="ct-note">
              {figureMessage(t('copy_unfollowSettle'), [fractionPercent(relation.profitShareRate)])}
            </p>
          </div>
        )
      }
    />
  );
}

function RelationCard({
  relation,
  onUnfollow,
}: {
  relation: CopyRelation;
  onUnfollow: () => void;
}) {
  const { t } = useTranslation();
  const id = relation.id;
  const active = relation.status === RELATION_STATUS.active;
  const money = (value: string) => amountText(value, relation.currency, relation.scale);
  return (
    <li className="card ct-card" data-testid={`copy-relation-${id}`}>
      <div className="ct-card-head">
        <Avatar name={relation.traderName} src={relation.traderAvatar} />
        <div className="ct-names">
          <button
            type="button"
            className="link ct-name"
            style={{ textAlign: 'start', padding: 0 }}
            onClick={() => navigateTo('copyTrader', { traderId: relation.traderId })}
          >
            {relation.traderName}
          </button>
          <span className="ct-title">{modeText(relation)}</span>
        </div>
        <BookTag book={relation.book} />
        <RelationStatusTag status={relation.status} />
      </div>
      <Line
        label={t('copy_cumPnl')}
        value={
          <Toned value={relation.cumPnl}>
            {pnlText(relation.cumPnl, relation.currency, relation.scale)}
          </Toned>
        }
        number={false}
        testId={`copy-relation-${id}-pnl`}
        strong
      />
      <Line label={t('copy_hwm')} value={money(relation.hwm)} testId={`copy-relation-${id}-hwm`} />
      <Line
        label={t('copy_marginInUse')}
        value={`${money(relation.marginInUse)} / ${money(relation.budget)}`}
        testId={`copy-relation-${id}-margin`}
      />
      <Line
        label={t('copy_openCopies')}
        value={`${relation.openCopies} / ${relation.maxOpen}`}
        testId={`copy-relation-${id}-open`}
      />
      <Line
        label={t('copy_ownTpSl')}
        value={`${relation.tpRate ? fractionPercent(relation.tpRate) : '- -'} / ${relation.slRate ? fractionPercent(relation.slRate) : '- -'}`}
      />
      <Line label={t('copy_shareRate')} value={fractionPercent(relation.profitShareRate)} />
      <Line
        label={t('copy_sharePaid')}
        value={money(relation.sharePaid)}
        testId={`copy-relation-${id}-paid`}
      />
      {isPositive(relation.owed) && (
        <Line
          label={t('copy_owed')}
          value={money(relation.owed)}
          testId={`copy-relation-${id}-owed`}
        />
      )}
      <Line label={t('copy_since')} value={timeText(relation.createTime)} />
      {!active && (
        <Line
          label={t('copy_endedAt')}
          value={
            <>
              <Num>{timeText(relation.endTime)}</Num>{' '}
              {relation.endMode !== null &&
                t(relation.endMode === CLOSE_MODE.closeNow ? 'copy_endClosed' : 'copy_endKept')}
            </>
          }
          number={false}
          testId={`copy-relation-${id}-ended`}
        />
      )}
      <div className="ct-card-foot">
        <Button
          size="small"
          fill="outline"
          data-testid={`copy-relation-${id}-copies`}
          onClick={() => navigateTo('copyCopies', { relationId: id })}
        >
          {t('copy_copies')}
        </Button>
        <Button
          size="small"
          fill="outline"
          data-testid={`copy-relation-${id}-settlements`}
          onClick={() => navigateTo('copySettlements', { relationId: id })}
        >
          {t('copy_settlements')}
        </Button>
        {active && (
          <>
            <Button
              size="small"
              fill="outline"
              color="primary"
              data-testid={`copy-relation-${id}-edit`}
              onClick={() =>
                navigateTo('copyFollow', { traderId: relation.traderId, relationId: id })
              }
            >
              {t('copy_edit')}
            </Button>
            <Button
              size="small"
              fill="outline"
              color="danger"
              data-testid={`copy-relation-${id}-unfollow`}
              onClick={onUnfollow}
            >
              {t('copy_unfollow')}
            </Button>
          </>
        )}
      </div>
    </li>
  );
}

export default function MyCopiesPage() {
  const { t } = useTranslation();
  const list = useRecordPages<CopyRelation, number>(
    [...copyKeys.relations, 'paged'],
    fetchRelationPage,
  );
  const [ending, setEnding] = useState<CopyRelation | undefined>();
  return (
    <SignedInScreen
      testId="copy-mine-page"
      title={t('copy_myCopies')}
      right={
        <button
          type="button"
          className="link ct-header-link"
          data-testid="copy-mine-settlements"
          onClick={() => navigateTo('copySettlements')}
        >
          {t('copy_settlements')}
        </button>
      }
    >
      <RecordTabs list={list} label="copy_myCopies" filters={FILTERS} testId="copy-mine-tab" />
      <div role="tabpanel">
        <RecordList
          list={list}
          className="card-list"
          testId="copy-relations"
          empty={{
            title: t('copy_noRelations'),
            testId: 'copy-relations-empty',
            action: { label: t('copy_browse'), onClick: () => navigateTo('followOrder') },
          }}
        >
          <ul className="card-items">
            {list.rows.map((relation) => (
              <RelationCard
                key={relation.id}
                relation={relation}
                onUnfollow={() => setEnding(relation)}
              />
            ))}
          </ul>
        </RecordList>
      </div>
      <UnfollowDialog relation={ending} onClose={() => setEnding(undefined)} />
    </SignedInScreen>
  );
}
