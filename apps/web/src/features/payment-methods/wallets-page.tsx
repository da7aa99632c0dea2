/**
 * The user's wallet addresses (wallets), grouped by currency, each labelled with its network and
 * shown masked as the server sends it; delete after a confirmation, add while under the limit.
 */
import { Button, DotLoading } from 'antd-mobile';
import { PayCircleOutline } from 'antd-mobile-icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MAX_WALLET_ADDRESSES, type WalletAddress } from '@bourse/shared';
import { isSignedIn } from '../../api/session';
import { PageHeader } from '../../components/page-header';
import { RequireSignIn } from '../../components/require-sign-in';
import { translate } from '../../i18n';
import { navigateTo } from '../../lib/navigation';
import { deleteWalletAddress, fetchWalletAddresses, QUERY_KEY } from './api';
import { EmptyState, useRemoval } from './parts';

/** Addresses by currency, currencies in the order their first address comes. */
function byCurrency(rows: readonly WalletAddress[]): [string, WalletAddress[]][] {
  const groups = new Map<string, WalletAddress[]>();
  for (const row of rows) {
    const group = groups.get(row.currencyName);
    if (group) group.push(row);
    else groups.set(row.currencyName, [row]);
  }
  return [...groups];
}

function AddressItem({ address, onDelete }: { address: WalletAddress; onDelete: () => void }) {
  const { t } = useTranslation();
  return (
    <article className="pm-item" data-testid="wallet-address">
      <div className="pm-item-head">
        <span className="pm-item-icon" aria-hidden="true">
          <PayCircleOutline />
        </span>
        <span className="pm-item-title">
          <span className="row" style={{ gap: 6 }}>
            <strong>{address.currencyName}</strong>
            <span className="pm-tag" data-testid="wallet-address-network">
              {address.network}
            </span>
          </span>
          {address.remark && <span className="muted ellipsis">{address.remark}</span>}
        </span>
        <Button
          size="small"
          color="danger"
          fill="outline"
          onClick={onDelete}
          data-testid="wallet-address-delete"
        >
          {t('address_delete')}
        </Button>
      </div>
      <div className="pm-address" dir="ltr" data-testid="wallet-address-value">
        {address.address}
      </div>
    </article>
  );
}

export default function WalletsPage() {
  const { t } = useTranslation();
  const removal = useRemoval(QUERY_KEY.walletAddresses);
  const addresses = useQuery({
    queryKey: QUERY_KEY.walletAddresses,
    queryFn: fetchWalletAddresses,
    enabled: isSignedIn(),
  });
  const rows = addresses.data ?? [];
  const canAdd = addresses.isSuccess && rows.length < MAX_WALLET_ADDRESSES;

  const remove = (address: WalletAddress) =>
    removal({
      question: translate('address_deleteConfirm', [address.currencyName, address.network]),
      confirm: t('address_delete'),
      done: t('address_deleted'),
      remove: () => deleteWalletAddress(address.id),
    });

  return (
    <RequireSignIn>
      <div className="page" data-testid="wallets-page">
        <PageHeader title={t('area_wallets')} />
        <div className="page-body stack">
          {addresses.isPending && (
            <div className="pm-empty">
              <DotLoading color="currentColor" />
            </div>
          )}
          {addresses.isSuccess && rows.length === 0 && (
            <EmptyState
              icon={<PayCircleOutline />}
              text={t('address_empty')}
              action={t('address_add')}
              onAction={() => navigateTo('bindAddress')}
              testId="wallets-empty"
            />
          )}
          {byCurrency(rows).map(([currencyName, group]) => (
            <section
              key={currencyName}
              className="stack"
              data-testid={`wallet-group-${currencyName}`}
            >
              <h2 className="pm-group-title">{currencyName}</h2>
              {group.map((address) => (
                <AddressItem
                  key={address.id}
                  address={address}
                  onDelete={() => void remove(address)}
                />
              ))}
            </section>
          ))}
          {rows.length > 0 && (
            <>
              {canAdd && (
                <Button
                  block
                  color="primary"
                  fill="outline"
                  onClick={() => navigateTo('bindAddress')}
                  data-testid="wallet-address-add"
                >
                  {t('address_add')}
                </Button>
              )}
              <p className="pm-note">
                {translate('address_limit', [rows.length, MAX_WALLET_ADDRESSES])}
              </p>
            </>
          )}
        </div>
      </div>
    </RequireSignIn>
  );
}
