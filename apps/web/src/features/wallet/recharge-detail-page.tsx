/**
 * One deposit (recharge-detail?id=…): amount, channel, status (under review, approved, or
 * rejected with the reason), times and the payment proof, which only its owner can load (fetched
 * with the session and shown from a blob URL). An online deposit still under review offers its
 * payment page again. While under review the screen looks again every 30 s.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, ImageViewer } from 'antd-mobile';
import { useTranslation } from '../../i18n/react';
import { useSearchParams } from 'react-router';
import { formatDateTime, RECHARGE_CHANNEL_TYPE, RECHARGE_STATUS } from '@bourse/shared';
import { SignedInScreen } from '../../components/signed-in-screen';
import { navigateTo } from '../../lib/navigation';
import { fetchRecharge, useRechargeChannels, type RechargeRecord } from './recharge-api';
import { CHANNEL_TYPE_LABEL, DetailRow, RechargeStatusTag, useProofUrl } from './recharge-parts';
import { moneyAsSent } from './wallet-format';

const REVIEW_REFRESH_MS = 30_000;

export default function RechargeDetailPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const id = Number(search.get('id'));
  const valid = Number.isInteger(id) && id > 0;
  const record = useQuery({
    queryKey: ['rechargeRecord', id],
    queryFn: () => fetchRecharge(id),
    enabled: valid,
    refetchInterval: (query) =>
      query.state.data?.status === RECHARGE_STATUS.reviewing ? REVIEW_REFRESH_MS : false,
  });
  return (
    <SignedInScreen testId="recharge-detail-page" title={t('recharge_detailTitle')}>
      <div className="page-body stack">
        {!valid || record.isError ? (
          <p className="muted rc-empty">{t('recharge_notFound')}</p>
        ) : record.data ? (
          <RechargeDetail record={record.data} />
        ) : (
          <p className="muted rc-empty">{t('common_loading')}</p>
        )}
      </div>
    </SignedInScreen>
  );
}

function RechargeDetail({ record }: { record: RechargeRecord }) {
  const { t } = useTranslation();
  const proof = useProofUrl(record.id, record.hasProof);
  const [viewing, setViewing] = useState(false);
  const online = record.channelType === RECHARGE_CHANNEL_TYPE.online;
  const reviewing = record.status === RECHARGE_STATUS.reviewing;
  const channels = useRechargeChannels({ enabled: online && reviewing });
  const payUrl = channels.data?.find((channel) => channel.id === record.channelId)?.payUrl;
  return (
    <>
      <section className="card rc-status">
        <RechargeStatusTag status={record.status} />
        <span className="rc-status-amount" data-testid="recharge-detail-amount">
          {moneyAsSent(record.amount)} {record.currencyName}
        </span>
        <p className="muted rc-status-text">{t(`recharge_statusText${record.status}`)}</p>
        {record.status === RECHARGE_STATUS.rejected && (
          <p className="rc-reason" data-testid="recharge-reject-reason">
            {t('recharge_rejectReason')}: {record.rejectReason || '- -'}
          </p>
        )}
        {online && reviewing && payUrl && (
          <Button
            color="primary"
            fill="outline"
            onClick={() => void window.open(payUrl, '_blank', 'noopener,noreferrer')}
            data-testid="recharge-open-pay"
          >
            {t('recharge_openPayPage')}
          </Button>
        )}
      </section>

      <section className="card">
        <DetailRow label={t('recharge_orderNo')} value={record.orderNo} copy mono />
        <DetailRow label={t('recharge_channel')} value={record.channelName} />
        <DetailRow
          label={t('recharge_type')}
          value={t(CHANNEL_TYPE_LABEL[record.channelType] ?? 'recharge_typeBank')}
        />
        <DetailRow label={t('recharge_createTime')} value={formatDateTime(record.createTime)} />
        {record.reviewTime && (
          <DetailRow label={t('recharge_reviewTime')} value={formatDateTime(record.reviewTime)} />
        )}
        {record.remark && <DetailRow label={t('recharge_remarkShort')} value={record.remark} />}
      </section>

      {record.hasProof && (
        <section className="card stack" style={{ gap: 8 }}>
          <h2 className="rc-section-title" style={{ margin: 0 }}>
            {t('proof_label')}
          </h2>
          {proof.url ? (
            <>
              <button
                type="button"
                onClick={() => setViewing(true)}
                style={{ background: 'none', border: 0, padding: 0, cursor: 'zoom-in' }}
                aria-label={t('proof_view')}
              >
                <img
                  className="rc-proof-image"
                  src={proof.url}
                  alt={t('proof_alt')}
                  data-testid="recharge-proof-image"
                />
              </button>
              <ImageViewer image={proof.url} visible={viewing} onClose={() => setViewing(false)} />
            </>
          ) : (
            <p className="muted" style={{ margin: 0 }}>
              {t(proof.failed ? 'proof_unavailable' : 'common_loading')}
            </p>
          )}
        </section>
      )}

      <div className="row">
        <Button block onClick={() => navigateTo('rechargeRecord')}>
          {t('recharge_records')}
        </Button>
        <Button block color="primary" fill="outline" onClick={() => navigateTo('recharge')}>
          {t('recharge_newDeposit')}
        </Button>
      </div>
    </>
  );
}
