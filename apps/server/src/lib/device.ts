/**
 * What a session's or a sign-in's device is, from its stored user agent (bowser): the browser, the
 * operating system and the kind of device, each with what it could tell. Read when a list is
 * answered, never stored: a better parser later describes old rows better too.
 */
import Bowser from 'bowser';
import type { DeviceInfo } from '@bourse/shared';

const DEVICE_TYPES = new Set(['mobile', 'tablet', 'desktop', 'tv', 'bot']);

function named(name: string | undefined, version: string | undefined): string | null {
  if (!name) return null;
  // The major version is enough to recognise a device; the rest only makes lines long.
  const major = version?.split('.')[0];
  return major ? `${name} ${major}` : name;
}

export function describeDevice(userAgent: string | null): DeviceInfo {
  if (!userAgent) return { browser: null, os: null, type: 'unknown' };
  const parsed = Bowser.parse(userAgent);
  const type = parsed.platform.type ?? '';
  return {
    browser: named(parsed.browser.name, parsed.browser.version),
    // Windows says its NT version ("NT 10.0"); its name ("10") is the one people know.
    os:
      parsed.os.name === 'Windows' && parsed.os.versionName
        ? `Windows ${parsed.os.versionName}`
        : named(parsed.os.name, parsed.os.version),
    type: (DEVICE_TYPES.has(type) ? type : 'unknown') as DeviceInfo['type'],
  };
}
