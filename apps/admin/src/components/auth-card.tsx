import type { ReactNode } from 'react';
import { Card } from 'antd';
import { SECONDARY_TEXT } from './cells';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from './language-switch';

interface AuthCardProps {
  title: string;
  children: ReactNode;
  testId: string;
  /** The card's width in CSS pixels (the two-factor set-up's QR code and codes need more). */
  width?: number;
}

/**
 * The frame of the pages before the console opens: sign-in (and its code), the first password,
 * the two-factor set-up.
 */
export function AuthCard({ title, children, testId, width = 440 }: AuthCardProps) {
  const { t } = useTranslation();
  return (
    <div
      style={{
        minHeight: '100vh',
        display: 'grid',
        placeItems: 'center',
        background: 'linear-gradient(160deg, #0f1629 0%, #1d2b53 55%, #f0f2f5 55%)',
        padding: 24,
      }}
    >
      <div style={{ position: 'fixed', top: 16, insetInlineEnd: 24 }}>
        <LanguageSwitch />
      </div>
      <Card style={{ width, boxShadow: '0 12px 40px rgba(15,22,41,0.18)' }} data-testid={testId}>
        <div style={{ display: 'flex', alignItems: 'center', gap: 12, marginBottom: 24 }}>
          <img src="/admin/favicon.svg" alt="" width={40} height={40} />
          <div>
            <h1 style={{ margin: 0, fontSize: 20, fontWeight: 600, lineHeight: 1.4 }}>{title}</h1>
            <span style={{ color: SECONDARY_TEXT }}>{t('app.name')}</span>
          </div>
        </div>
        {children}
      </Card>
    </div>
  );
}
