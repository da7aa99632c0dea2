/**
 * The reason a request is refused with, which the user reads: one of the usual reasons (put in
 * the text, to edit) or the operator's own words. Checked with the call's schema
 * (reviewRejectBody: 1 to 500 characters, line breaks allowed); a refusal of the server is shown
 * on the reason when it names it.
 */
import { useState } from 'react';
import { Alert, Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { reviewRejectBody } from '@bourse/shared';
import { checkWith, showOnField } from '../lib/form';

const REASON_MAX = 500;

export function RejectDialog({
  open,
  title,
  reasons,
  onReject,
  onClose,
}: {
  open: boolean;
  title: string;
  /** The usual reasons, in the console's language. */
  reasons: readonly string[];
  /** Sends the refusal; throws the call's error. */
  onReject(reason: string): Promise<void>;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();

  async function submit() {
    setFailure(undefined);
    const values = form.getFieldsValue() as { reason?: string };
    // The id is the dialog's own: only the reason is the operator's to check here.
    const body = checkWith(form, reviewRejectBody, { id: 1, reason: values.reason ?? '' });
    if (!body) return;
    setBusy(true);
    try {
      await onReject(body.reason);
      form.resetFields();
      onClose();
    } catch (error) {
      setFailure(showOnField(form, error, ['reason']));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open={open}
      title={title}
      okText={t('review.reject')}
      okButtonProps={{ danger: true, loading: busy, 'data-testid': 'reject-confirm' }}
      cancelText={t('common.cancel')}
      onOk={() => void submit()}
      onCancel={() => {
        setFailure(undefined);
        onClose();
      }}
      destroyOnHidden
      width={560}
    >
      {failure && <Alert type="error" showIcon message={failure} style={{ marginBottom: 16 }} />}
      <Form form={form} layout="vertical" requiredMark={false} preserve={false}>
        <Form.Item label={t('review.usualReasons')}>
          <Select
            placeholder={t('review.pickReason')}
            options={reasons.map((reason) => ({ value: reason, label: reason }))}
            onChange={(reason: string) => form.setFieldsValue({ reason })}
            data-testid="reason-preset"
          />
        </Form.Item>
        <Form.Item name="reason" label={t('review.reason')} extra={t('review.reasonHelp')}>
          <Input.TextArea
            rows={4}
            maxLength={REASON_MAX}
            showCount
            data-testid="reason"
            autoFocus
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
