/**
 * A password shown once (made at creation or at a reset): to hand to the operator, who must
 * choose their own at the next sign-in. Copyable; gone once the dialog closes.
 */
import { Alert, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

export interface ShownPassword {
  username: string;
  password: string;
}

export function OneTimePassword({
  shown,
  onClose,
}: {
  shown: ShownPassword | undefined;
  onClose(): void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={shown !== undefined}
      title={t('operators.oneTime.title', { username: shown?.username ?? '' })}
      onOk={onClose}
      onCancel={onClose}
      okText={t('operators.oneTime.done')}
      cancelButtonProps={{ style: { display: 'none' } }}
      destroyOnHidden
      width={520}
    >
      <Alert
        type="warning"
        showIcon
        message={t('operators.oneTime.once')}
        style={{ marginBottom: 16 }}
      />
      <Typography.Paragraph
        copyable={{
          text: shown?.password,
          tooltips: [t('operators.oneTime.copy'), t('operators.oneTime.copied')],
        }}
        code
        style={{ fontSize: 18 }}
        data-testid="one-time-password"
      >
        {shown?.password}
      </Typography.Paragraph>
      <Typography.Paragraph type="secondary">{t('operators.oneTime.next')}</Typography.Paragraph>
    </Modal>
  );
}

/** A password of 20 letters and digits from the browser's secure random source. */
export function generatedPassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  // 256 is not a multiple of the alphabet's size: bytes past the last whole multiple are drawn again.
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  for (const byte of bytes) {
    if (byte < limit) out += alphabet[byte % alphabet.length];
  }
  return out.length >= 16 ? out : generatedPassword();
}
