/**
 * Redeeming an order early: the server's quote first (the days left of the term, the penalty, what
 * comes back, interest accrued for maturity that would not be paid), worked out by the shared
 * function it pays with; the penalty shown is sent with the redemption, so a quote overtaken by a
 * new day is refused and quoted again, never paid differently.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { formatMessage, isPositive, type EarnKind, type EarnOrder } from '@bourse/shared';
import { ApiError } from '../../api/client';
import { BottomSheet } from '../../components/bottom-sheet';
import { SheetButtons } from '../../components/sheet-buttons';
import { useSubmit } from '../../hooks/use-submit';
import { useTranslation } from '../../i18n/react';
import { showToast } from '../../lib/toast';
import { useRequestId } from '../../lib/trade';
import { earnKeys, fetchRedemptionPreview, redeemOrder } from './api';
import { amountText, Line } from './earn-parts';

export function RedeemSheet({
  kind,
  order,
  onClose,
}: {
  kind: EarnKind;
  order: EarnOrder | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const request = useRequestId('redeem');
  const preview = useQuery({
    queryKey: ['earnRedemption', kind, order?.id],
    queryFn: () => fetchRedemptionPreview(kind, order!.id),
    enabled: order !== undefined,
    gcTime: 0,
  });
  const quote = preview.data?.quote;
  const redeem = useSubmit(async () => {
    if (!order || !quote) return;
    try {
      await redeemOrder(kind, {
        id: order.id,
        requestId: request.idFor(`${order.id}:${quote.penalty}`),
        penalty: quote.penalty,
      });
    } catch (error) {
      // A day passed since the quote: quote again (the client has said why).
      if (error instanceof ApiError && error.msg === 'hint_earnPenaltyChanged')
        void preview.refetch();
      throw error;
    }
    request.reset();
    showToast(t('earn_redeemed'));
    void queryClient.invalidateQueries({ queryKey: ['userBalance'] });
    void queryClient.invalidateQueries({ queryKey: ['balances'] });
    void queryClient.invalidateQueries({ queryKey: earnKeys.orders(kind) });
    onClose();
  });
  const figures = order ? { scale: order.scale, currency: order.currency } : undefined;
  return (
    <BottomSheet
      visible={order !== undefined}
      onClose={onClose}
      onMaskClick={() => !redeem.pending && onClose()}
      destroyOnClose
      bodyClassName="trade-sheet"
    >
      {order && figures && (
        <div className="stack" data-testid="earn-redeem">
          <h2 className="sheet-title">{t('earn_redeemTitle')}</h2>
          {!quote ? (
            <p className="muted">{preview.isError ? t('net_error') : t('common_loading')}</p>
          ) : (
            <>
              <div className="er-terms">
                <Line label={t('earn_orderNo')} value={order.orderNo} />
                <Line label={t('earn_stake')} value={amountText(order.balance, figures)} />
                <Line
                  label={t('earn_daysLeft')}
                  value={String(quote.remainingDays)}
                  testId="earn-redeem-days"
                />
                <Line
                  label={t('earn_penaltyAmount')}
                  value={amountText(quote.penalty, figures)}
                  testId="earn-redeem-penalty"
                  strong
                />
                {isPositive(quote.forfeited) && (
                  <Line
                    label={t('earn_forfeited')}
                    value={amountText(quote.forfeited, figures)}
                    testId="earn-redeem-forfeited"
                  />
                )}
                <Line
                  label={t('earn_returned')}
                  value={amountText(quote.returned, figures)}
                  testId="earn-redeem-returned"
                  strong
                />
              </div>
              <p className="muted er-small">
                {formatMessage(t('earn_interestKept'), [amountText(order.interestPaid, figures)])}
              </p>
              <SheetButtons
                pending={redeem.pending}
                onCancel={onClose}
                color="warning"
                label={t('earn_redeemConfirm')}
                testId="earn-redeem-confirm"
                onConfirm={() => void redeem.submit()}
              />
            </>
          )}
        </div>
      )}
    </BottomSheet>
  );
}
