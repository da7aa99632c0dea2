import { getDefaultConfig } from 'antd-mobile/es/components/config-provider';
import { expect, it } from 'vitest';
import { applyAntdLocale } from './antd-locale';

it("sets antd-mobile's texts to the interface language, the closest one it has, or English", async () => {
  await applyAntdLocale('de');
  expect(getDefaultConfig().locale.locale).toBe('de-DE');
  await applyAntdLocale('blr');
  expect(getDefaultConfig().locale.locale).toBe('ru');
  await applyAntdLocale('ida');
  expect(getDefaultConfig().locale.locale).toBe('en');
  expect(getDefaultConfig().locale.common.confirm).toBe('Confirm');
});
