/**
 * The last row of a confirm sheet: cancel, and the button that confirms (busy while the call
 * runs). Earn's and new shares' sheets use it.
 */
import { Button } from 'antd-mobile';
import { useTranslation } from '../i18n/react';

export function SheetButtons({
  pending,
  onCancel,
  color = 'primary',
  label,
  testId,
  onConfirm,
}: {
  pending: boolean;
  onCancel: () => void;
  color?: 'primary' | 'warning';
  label: string;
  testId: string;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="row">
      <Button block fill="outline" disabled={pending} onClick={onCancel}>
        {t('common_cancel')}
      </Button>
      <Button
        block
        color={color}
        loading={pending}
        disabled={pending}
        data-testid={testId}
        onClick={onConfirm}
      >
        {label}
      </Button>
    </div>
  );
}
