/**
 * The console's frame: a side menu with the pages the operator's roles admit (pages.tsx), a
 * header with the page's title, the language and the operator (their account, sign out), and the
 * page. Loaded once signed in, so the sign-in screen carries neither menu nor layout.
 */
import { useEffect, useRef } from 'react';
import { LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Dropdown, Layout, Menu, Space } from 'antd';
import type { MenuProps } from 'antd';
import { Link, Outlet, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { operatorsApi } from '@bourse/shared';
import { api } from '../api';
import { endSession } from '../lib/session';
import { LanguageSwitch } from '../components/language-switch';
import { RoleTags } from '../components/roles';
import { useReviewEvents } from '../hooks/use-review-events';
import { useOperator } from './operator';
import { MENU_GROUPS, menuPageOf, pageAt } from './pages';
import { useVisiblePages } from './page-gate';

const SIDER_WIDTH = 232;

function Brand() {
  const { t } = useTranslation();
  return (
    <div
      style={{
        height: 64,
        display: 'flex',
        alignItems: 'center',
        gap: 10,
        padding: '0 20px',
        color: '#fff',
      }}
    >
      <img src="/admin/favicon.svg" alt="" width={28} height={28} />
      <div style={{ lineHeight: 1.2 }}>
        <div style={{ fontWeight: 700, fontSize: 16 }}>Bourse</div>
        <div style={{ fontSize: 12, color: 'rgba(255,255,255,0.6)' }}>{t('app.console')}</div>
      </div>
    </div>
  );
}

export default function ConsoleLayout() {
  const { t } = useTranslation();
  const operator = useOperator();
  const location = useLocation();
  const queryClient = useQueryClient();
  const pages = useVisiblePages();
  useReviewEvents(operator);
  const current = pageAt(location.pathname);
  // The menu is taller than a laptop's screen: the open page's entry is scrolled into the sider.
  const sider = useRef<HTMLDivElement>(null);
  const menuPath = current ? menuPageOf(current).path : undefined;
  useEffect(() => {
    sider.current?.querySelector('.ant-menu-item-selected')?.scrollIntoView({ block: 'nearest' });
  }, [menuPath]);

  const items: MenuProps['items'] = MENU_GROUPS.flatMap((group) => {
    const children = pages
      .filter((page) => page.group === group && !page.parent)
      .map((page) => ({
        key: page.path,
        icon: page.icon,
        label: (
          <Link to={page.path} data-testid={`menu-${page.key}`}>
            {t(`nav.${page.key}`)}
          </Link>
        ),
      }));
    return children.length === 0
      ? []
      : [{ type: 'group' as const, key: group, label: t(`nav.group.${group}`), children }];
  });

  async function signOut() {
    try {
      await api.send(operatorsApi.signOut);
    } catch {
      // The session may have ended already: signing out here is what matters.
    }
    queryClient.clear();
    endSession('signedOut');
  }

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider
        ref={sider}
        width={SIDER_WIDTH}
        theme="dark"
        style={{ position: 'fixed', insetBlock: 0, insetInlineStart: 0, overflow: 'auto' }}
      >
        <Brand />
        <Menu
          theme="dark"
          mode="inline"
          selectedKeys={menuPath ? [menuPath] : []}
          items={items}
          data-testid="side-menu"
        />
      </Layout.Sider>
      <Layout style={{ marginInlineStart: SIDER_WIDTH }}>
        <Layout.Header
          style={{
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            padding: '0 24px',
            borderBottom: '1px solid #f0f0f0',
            position: 'sticky',
            top: 0,
            zIndex: 10,
          }}
        >
          <h1
            style={{ margin: 0, fontSize: 20, fontWeight: 600, lineHeight: 1.4 }}
            data-testid="page-title"
          >
            {current ? t(`nav.${current.key}`) : ''}
          </h1>
          <Space size={16}>
            <LanguageSwitch />
            <Dropdown
              trigger={['click']}
              menu={{
                items: [
                  {
                    key: 'account',
                    icon: <UserOutlined />,
                    label: <Link to="/account">{t('nav.account')}</Link>,
                  },
                  { type: 'divider' },
                  {
                    key: 'sign-out',
                    icon: <LogoutOutlined />,
                    label: <span data-testid="sign-out">{t('auth.signOut')}</span>,
                    onClick: () => void signOut(),
                  },
                ],
              }}
            >
              <Button type="text" data-testid="operator-menu" style={{ height: 40 }}>
                <Space size={8}>
                  <UserOutlined />
                  <span data-testid="operator-name">{operator.username}</span>
                  <RoleTags roles={operator.roles} />
                </Space>
              </Button>
            </Dropdown>
          </Space>
        </Layout.Header>
        <Layout.Content style={{ padding: 24 }}>
          <Outlet />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
