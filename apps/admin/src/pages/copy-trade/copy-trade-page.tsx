/**
 * Copy trading (admin, finance; issue 25): the queue of applications to lead (approve, or reject
 * with the reason the user reads), lead traders with their computed statistics (no operator may
 * enter or change one), a cap on a trader's followers, suspending and resuming a trader with a
 * reason (followers told, their copies kept), every relation with its P&L and high-water mark,
 * the settlements report, and the settings (the highest profit-share rate, the track record to
 * apply, the delay of shown positions). Every change is in the audit log.
 */
import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApplicationsTab } from './applications-tab';
import { RelationsTab } from './relations-tab';
import { SettingsTab, useCopySettings } from './settings-tab';
import { SettlementsTab } from './settlements-tab';
import { TradersTab } from './traders-tab';

export default function CopyTradePage() {
  const { t } = useTranslation();
  const settings = useCopySettings();
  const tab = (key: string, label: string) => <span data-testid={`copy-tab-${key}`}>{label}</span>;
  return (
    <div style={{ background: '#fff', padding: 24, borderRadius: 8 }} data-testid="copy-trade-page">
      <Tabs
        destroyOnHidden
        items={[
          {
            key: 'applications',
            label: tab('applications', t('copyTrade.tab.applications')),
            children: <ApplicationsTab minClosedTrades={settings.data?.minClosedTrades} />,
          },
          {
            key: 'traders',
            label: tab('traders', t('copyTrade.tab.traders')),
            children: <TradersTab />,
          },
          {
            key: 'relations',
            label: tab('relations', t('copyTrade.tab.relations')),
            children: <RelationsTab />,
          },
          {
            key: 'settlements',
            label: tab('settlements', t('copyTrade.tab.settlements')),
            children: <SettlementsTab />,
          },
          {
            key: 'settings',
            label: tab('settings', t('copyTrade.tab.settings')),
            children: <SettingsTab />,
          },
        ]}
      />
    </div>
  );
}
