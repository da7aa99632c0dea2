/**
 * The user's bank cards (bankCard-list): each card with its bank, holder and number, masked as
 * the server sends it; edit, delete after a confirmation, and add while under the limit.
 */
import { Button, DotLoading } from 'antd-mobile';
import { BankcardOutline } from 'antd-mobile-icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MAX_BANK_CARDS, type BankCard } from '@bourse/shared';
import { isSignedIn } from '../../api/session';
import { PageHeader } from '../../components/page-header';
import { RequireSignIn } from '../../components/require-sign-in';
import { translate } from '../../i18n';
import { navigateTo } from '../../lib/navigation';
import { deleteBankCard, fetchBankCards, QUERY_KEY } from './api';
import { EmptyState, groupCardNumber, useRemoval } from './parts';

function BankCardItem({ card, onDelete }: { card: BankCard; onDelete: () => void }) {
  const { t } = useTranslation();
  return (
    <article className="pm-item pm-bank-card" data-testid="bank-card">
      <div className="pm-item-head">
        <span className="pm-item-icon" aria-hidden="true">
          <BankcardOutline />
        </span>
        <span className="pm-item-title">
          <strong className="ellipsis" data-testid="bank-card-bank">
            {card.bankName}
          </strong>
          <span className="muted ellipsis">{card.accountName}</span>
        </span>
      </div>
      <div className="pm-number" dir="ltr" data-testid="bank-card-number">
        {groupCardNumber(card.cardNumber)}
      </div>
      <div className="pm-actions">
        <Button
          size="small"
          fill="outline"
          onClick={() => navigateTo('bindBankCard', { id: card.id })}
          data-testid="bank-card-edit"
        >
          {t('bankCard_edit')}
        </Button>
        <Button
          size="small"
          color="danger"
          fill="outline"
          onClick={onDelete}
          data-testid="bank-card-delete"
        >
          {t('bankCard_delete')}
        </Button>
      </div>
    </article>
  );
}

export default function BankCardListPage() {
  const { t } = useTranslation();
  const removal = useRemoval(QUERY_KEY.bankCards);
  const cards = useQuery({
    queryKey: QUERY_KEY.bankCards,
    queryFn: fetchBankCards,
    enabled: isSignedIn(),
  });
  const rows = cards.data ?? [];
  const canAdd = cards.isSuccess && rows.length < MAX_BANK_CARDS;

  const remove = (card: BankCard) =>
    removal({
      question: translate('bankCard_deleteConfirm', [card.bankName, card.cardNumber.slice(-4)]),
      confirm: t('bankCard_delete'),
      done: t('bankCard_deleted'),
      remove: () => deleteBankCard(card.id),
    });

  return (
    <RequireSignIn>
      <div className="page" data-testid="bank-cards-page">
        <PageHeader title={t('area_bankCards')} />
        <div className="page-body stack">
          {cards.isPending && (
            <div className="pm-empty">
              <DotLoading color="currentColor" />
            </div>
          )}
          {cards.isSuccess && rows.length === 0 && (
            <EmptyState
              icon={<BankcardOutline />}
              text={t('bankCard_empty')}
              action={t('bankCard_add')}
              onAction={() => navigateTo('bindBankCard')}
              testId="bank-cards-empty"
            />
          )}
          {rows.map((card) => (
            <BankCardItem key={card.id} card={card} onDelete={() => void remove(card)} />
          ))}
          {rows.length > 0 && (
            <>
              {canAdd && (
                <Button
                  block
                  color="primary"
                  fill="outline"
                  onClick={() => navigateTo('bindBankCard')}
                  data-testid="bank-card-add"
                >
                  {t('bankCard_add')}
                </Button>
              )}
              <p className="pm-note">
                {translate('bankCard_limit', [rows.length, MAX_BANK_CARDS])}
              </p>
            </>
          )}
        </div>
      </div>
    </RequireSignIn>
  );
}
