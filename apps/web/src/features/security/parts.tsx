/**
 * What the security centre's lists share: a labelled line, a device's icon and heading, a result's
 * badge.
 */
import type { DeviceInfo } from '@bourse/shared';
import { deviceKind, deviceText } from './device-text';

export function Line({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="row" style={{ alignItems: 'flex-start', fontSize: 13 }}>
      <span className="muted" style={{ flex: 'none', minWidth: 72 }}>
        {label}
      </span>
      <span style={{ flex: 1, minWidth: 0, textAlign: 'end', overflowWrap: 'anywhere' }}>
        {children}
      </span>
    </div>
  );
}

const ICON_PATHS: Record<DeviceInfo['type'], string> = {
  // A phone.
  mobile: 'M7 2h10a2 2 0 0 1 2 2v16a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2zm0 3v13h10V5H7z',
  // A tablet.
  tablet: 'M5 2h14a2 2 0 0 1 2 2v16a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2zm0 3v13h14V5H5z',
  // A laptop.
  desktop: 'M4 4h16a1 1 0 0 1 1 1v10H3V5a1 1 0 0 1 1-1zm1 2v7h14V6H5zM1 17h22v2H1z',
  // A screen on a stand.
  tv: 'M3 4h18a1 1 0 0 1 1 1v11a1 1 0 0 1-1 1h-7v2h3v2H7v-2h3v-2H3a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1zm1 2v9h16V6H4z',
  // A gear.
  bot: 'M12 8a4 4 0 1 1 0 8 4 4 0 0 1 0-8zm-1-6h2l.5 3 2 .9 2.6-1.7 1.4 1.4-1.7 2.6.9 2 3 .5v2l-3 .5-.9 2 1.7 2.6-1.4 1.4-2.6-1.7-2 .9-.5 3h-2l-.5-3-2-.9-2.6 1.7-1.4-1.4 1.7-2.6-.9-2-3-.5v-2l3-.5.9-2-1.7-2.6 1.4-1.4 2.6 1.7 2-.9z',
  // A question mark in a circle.
  unknown:
    'M12 2a10 10 0 1 1 0 20 10 10 0 0 1 0-20zm0 2a8 8 0 1 0 0 16 8 8 0 0 0 0-16zm-1 11h2v2h-2zm1-9a3.5 3.5 0 0 1 1.2 6.8c-.2.1-.2.2-.2.4V13h-2v-1.8c0-1 .6-1.8 1.5-2.1A1.5 1.5 0 1 0 10.5 8h-2A3.5 3.5 0 0 1 12 6z',
};

export function DeviceIcon({ type, label }: { type: DeviceInfo['type']; label: string }) {
  return (
    <span
      role="img"
      aria-label={label}
      title={label}
      style={{
        flex: 'none',
        display: 'inline-flex',
        alignItems: 'center',
        justifyContent: 'center',
        width: 36,
        height: 36,
        borderRadius: 10,
        background: 'var(--surface-raised)',
        color: 'var(--text-muted)',
      }}
    >
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
        <path fill="currentColor" fillRule="evenodd" d={ICON_PATHS[type]} />
      </svg>
    </span>
  );
}

/** A small outlined label: this device, or how a sign-in ended. */
export function Badge({
  color = 'var(--accent)',
  testId,
  children,
}: {
  color?: string;
  testId?: string;
  children: React.ReactNode;
}) {
  return (
    <span
      data-testid={testId}
      style={{
        flex: 'none',
        fontSize: 12,
        fontWeight: 600,
        padding: '2px 8px',
        borderRadius: 999,
        border: `1px solid ${color}`,
        color,
      }}
    >
      {children}
    </span>
  );
}

/** A device's icon and name, then what the row says of it (a badge, a button). */
export function DeviceHeading({
  device,
  children,
}: {
  device: DeviceInfo;
  children: React.ReactNode;
}) {
  return (
    <div className="row" style={{ alignItems: 'center', gap: 10 }}>
      <DeviceIcon type={device.type} label={deviceKind(device)} />
      <strong style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
        {deviceText(device)}
      </strong>
      {children}
    </div>
  );
}
