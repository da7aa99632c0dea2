/** A dialog asking to confirm a step: cancel or go ahead, both held while the step is pending. */
import { Dialog } from 'antd-mobile';
import { useTranslation } from '../i18n/react';

export function ConfirmDialog({
  visible,
  title,
  content,
  pending,
  onClose,
  onConfirm,
  confirmText,
}: {
  visible: boolean;
  title: string;
  content: React.ReactNode;
  /** The step is under way: neither button nor the mask closes the dialog. */
  pending: boolean;
  onClose: () => void;
  onConfirm: () => void;
  /** The label of the button going ahead ("Confirm" when not given). */
  confirmText?: string;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      visible={visible}
      title={title}
      content={content}
      closeOnMaskClick={!pending}
      onClose={onClose}
      actions={[
        [
          { key: 'cancel', text: t('common_cancel'), disabled: pending, onClick: onClose },
          {
            key: 'confirm',
            text: confirmText ?? t('common_confirm'),
            bold: true,
            disabled: pending,
            onClick: onConfirm,
          },
        ],
      ]}
    />
  );
}
