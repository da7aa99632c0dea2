/**
 * The user's wallet addresses (wallets), grouped by currency, each labelled with its network and
 * shown masked as the server sends it; delete after a confirmation, add while under the limit.
 */
import type { WalletAddress } from '@bourse/shared';
import { WALLET_ADDRESSES } from './api';
import { BoundItem, BoundItemsScreen } from './parts';

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
  return (
    <BoundItem
      kind="address"
      testId="wallet-address"
      title={
        <span className="row" style={{ gap: 6 }}>
          <strong>{address.currencyName}</strong>
          <span className="pm-tag" data-testid="wallet-address-network">
            {address.network}
          </span>
        </span>
      }
      subtitle={address.remark}
      onDelete={onDelete}
    >
      <div className="pm-address" dir="ltr" data-testid="wallet-address-value">
        {address.address}
      </div>
    </BoundItem>
  );
}

export default function WalletsPage() {
  return (
    <BoundItemsScreen
      kind="address"
      items={WALLET_ADDRESSES}
      confirmNames={(address) => [address.currencyName, address.network]}
    >
      {(addresses, remove) =>
        byCurrency(addresses).map(([currencyName, group]) => (
          <section
            key={currencyName}
            className="stack"
            data-testid={`wallet-group-${currencyName}`}
          >
            <h2 className="pm-group-title">{currencyName}</h2>
            {group.map((address) => (
              <AddressItem key={address.id} address={address} onDelete={() => remove(address)} />
            ))}
          </section>
        ))
      }
    </BoundItemsScreen>
  );
}
