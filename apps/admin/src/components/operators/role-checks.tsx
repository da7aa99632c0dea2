/** The roles of an operator as checkboxes, each with what it gives. */
import { Checkbox, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { OPERATOR_ROLES } from '@bourse/shared';

export function RoleChecks(props: { value?: string[]; onChange?(value: string[]): void }) {
  const { t } = useTranslation();
  return (
    <Checkbox.Group {...props} data-testid="operator-roles">
      <Space direction="vertical" size={6}>
        {OPERATOR_ROLES.map((role) => (
          <Checkbox key={role} value={role} data-testid={`role-${role}`}>
            <span style={{ fontWeight: 500 }}>{t(`roles.${role}`)}</span>
            <Typography.Text type="secondary" style={{ marginInlineStart: 8, fontSize: 12 }}>
              {t(`operators.roleHelp.${role}`)}
            </Typography.Text>
          </Checkbox>
        ))}
      </Space>
    </Checkbox.Group>
  );
}
