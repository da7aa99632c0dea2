/**
 * The header's bell: opens the message list, with the number of unread site messages and
 * notifications on it (none shown at zero; 99+ above 99). Signed out it opens the list too, which
 * asks to sign in.
 */
import { BellOutline } from 'antd-mobile-icons';
import { useTranslation } from '../i18n/react';
import { useUnreadCount } from '../hooks/use-unread-count';
import { navigateTo } from '../lib/navigation';
import { HeaderIconButton } from './header-icon-button';
import './message-bell.css';

export function UnreadBadge({ count, testId }: { count: number; testId?: string }) {
  if (count <= 0) return null;
  return (
    <span className="unread-badge" data-testid={testId} aria-hidden="true">
      {count > 99 ? '99+' : count}
    </span>
  );
}

export function MessageBell({ testId = 'message-bell' }: { testId?: string }) {
  const { t } = useTranslation();
  const { count } = useUnreadCount();
  const label = count > 0 ? `${t('area_messages')} (${count})` : t('area_messages');
  return (
    <HeaderIconButton label={label} testId={testId} onClick={() => navigateTo('messages')}>
      <span className="bell-icon">
        <BellOutline />
        <UnreadBadge count={count} testId={`${testId}-count`} />
      </span>
    </HeaderIconButton>
  );
}
