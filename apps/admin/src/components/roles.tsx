import { Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { OperatorRole } from '@bourse/shared';

const ROLE_COLOURS: Record<OperatorRole, string> = {
  admin: 'volcano',
  finance: 'gold',
  support: 'cyan',
  content: 'purple',
};

/** An operator's roles as tags, in the console's language. */
export function RoleTags({ roles }: { roles: readonly OperatorRole[] }) {
  const { t } = useTranslation();
  return (
    <Space size={4} wrap>
      {roles.map((role) => (
        <Tag key={role} color={ROLE_COLOURS[role]} style={{ marginInlineEnd: 0 }}>
          {t(`roles.${role}`)}
        </Tag>
      ))}
    </Space>
  );
}
