/** How a session's or a sign-in's device reads: "Chrome 131 · Windows 10", or its kind alone. */
import type { DeviceInfo } from '@bourse/shared';
import { translate } from '../../i18n';

export function deviceText(device: DeviceInfo): string {
  const parts = [device.browser, device.os].filter((part): part is string => Boolean(part));
  return parts.length > 0 ? parts.join(' · ') : translate(`security_device_${device.type}`);
}

/** The kind of device, as the icon beside it says it. */
export function deviceKind(device: DeviceInfo): string {
  return translate(`security_device_${device.type}`);
}
