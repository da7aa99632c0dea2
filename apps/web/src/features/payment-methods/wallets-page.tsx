/**
 * The user's wallet addresses (wallets), grouped by currency, each labelled with its network and
 * shown masked as the server sends it; delete after a confirmation, add while under the limit.
 * The withdrawal whitelist's switch heads the list; while it is on, each address says from when
 * it takes withdrawals.
 */
import type { WalletAddress } from '@bourse/shared';
import { WALLET_ADDRESSES } from './api';
import { BoundItem, BoundItemsScreen } from './parts';
import { UsableFrom, useWhitelistOn, WhitelistSwitch } from './whitelist';

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

function AddressItem({
  address,
  whitelisted,
  onDelete,
}: {
  address: WalletAddress;
  /** The whitelist is on: the address says from when it takes withdrawals. */
  whitelisted: boolean;
  onDelete: () => void;
}) {
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
      {whitelisted && <UsableFrom usableFrom={address.usableFrom} />}
    </BoundItem>
  );
}

export default function WalletsPage() {
  const whitelisted = useWhitelistOn();
  return (
    <BoundItemsScreen
      kind="address"
      items={WALLET_ADDRESSES}
      confirmNames={(address) => [address.currencyName, address.network]}
    >
      {(addresses, remove) => [
        <WhitelistSwitch key="whitelist" />,
        ...byCurrency(addresses).map(([currencyName, group]) => (
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
                whitelisted={whitelisted}
                onDelete={() => remove(address)}
              />
            ))}
          </section>
        )),
      ]}
    </BoundItemsScreen>
  );
}
