/**
 * The user's bank cards (bankCard-list): each card with its bank, holder and number, masked as
 * the server sends it; edit, delete after a confirmation, and add while under the limit. While
 * the withdrawal whitelist is on, each card says from when it takes withdrawals.
 */
import { Button } from 'antd-mobile';
import { useTranslation } from '../../i18n/react';
import type { BankCard } from '@bourse/shared';
import { navigateTo } from '../../lib/navigation';
import { BANK_CARDS } from './api';
import { BoundItem, BoundItemsScreen, groupCardNumber } from './parts';
import { UsableFrom, useWhitelistOn } from './whitelist';

function BankCardItem({
  card,
  whitelisted,
  onDelete,
}: {
  card: BankCard;
  /** The whitelist is on: the card says from when it takes withdrawals. */
  whitelisted: boolean;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  return (
    <BoundItem
      kind="bankCard"
      testId="bank-card"
      className="pm-bank-card"
      title={
        <strong className="ellipsis" data-testid="bank-card-bank">
          {card.bankName}
        </strong>
      }
      subtitle={card.accountName}
      actions={
        <Button
          size="small"
          fill="outline"
          onClick={() => navigateTo('bindBankCard', { id: card.id })}
          data-testid="bank-card-edit"
        >
          {t('bankCard_edit')}
        </Button>
      }
      onDelete={onDelete}
    >
      <div className="pm-number" dir="ltr" data-testid="bank-card-number">
        {groupCardNumber(card.cardNumber)}
      </div>
      {whitelisted && <UsableFrom usableFrom={card.usableFrom} />}
    </BoundItem>
  );
}

export default function BankCardListPage() {
  const whitelisted = useWhitelistOn();
  return (
    <BoundItemsScreen
      kind="bankCard"
      items={BANK_CARDS}
      confirmNames={(card) => [card.bankName, card.cardNumber.slice(-4)]}
    >
      {(cards, remove) =>
        cards.map((card) => (
          <BankCardItem
            key={card.id}
            card={card}
            whitelisted={whitelisted}
            onDelete={() => remove(card)}
          />
        ))
      }
    </BoundItemsScreen>
  );
}
