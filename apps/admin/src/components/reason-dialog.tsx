/**
 * A dialog that asks an operator why, before an action the user or the audit log reads the reason
 * of (a refused request, a reset two-factor): optional usual reasons to start from, the reason
 * checked by the caller's schema before sending, and a refusal of the server shown on the reason
 * when it names it, else above the form.
 */
import { useState, type ReactNode } from 'react';
import { Form, Input, Modal, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { checkWith, clearChangedErrors, showOnField } from '../lib/form';
import { FailureAlert } from './failure-alert';
import type { z } from 'zod';

export interface ReasonDialogProps<S extends z.ZodType> {
  open: boolean;
  title: string;
  okText: string;
  /** The test ids' stem: `<testId>-confirm`, `<testId>-failure`; the reason's own is `reasonTestId`. */
  testId: string;
  reasonTestId: string;
  /** The call's schema, and the body it checks (the reason put in). */
  schema: S;
  body(reason: string): Record<string, unknown>;
  /** Sends the checked body; throws the call's error. */
  onSubmit(body: z.output<S>): Promise<void>;
  onClose(): void;
  label: string;
  help: string;
  maxLength: number;
  placeholder?: string;
  /** Usual reasons to start from, in the console's language. */
  presets?: readonly string[];
  /** Shown above the form (what the action does). */
  children?: ReactNode;
  /** The confirm button warns (red) unless the action restores something (default true). */
  danger?: boolean;
}

export function ReasonDialog<S extends z.ZodType>(props: ReasonDialogProps<S>) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();

  async function submit() {
    setFailure(undefined);
    const values = form.getFieldsValue() as { reason?: string };
    const body = checkWith(form, props.schema, props.body(values.reason ?? ''));
    if (!body) return;
    setBusy(true);
    try {
      await props.onSubmit(body);
      form.resetFields();
      props.onClose();
    } catch (error) {
      setFailure(showOnField(form, error, ['reason']));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open={props.open}
      title={props.title}
      okText={props.okText}
      okButtonProps={{
        danger: props.danger ?? true,
        loading: busy,
        'data-testid': `${props.testId}-confirm`,
      }}
      cancelText={t('common.cancel')}
      onOk={() => void submit()}
      onCancel={() => {
        setFailure(undefined);
        props.onClose();
      }}
      destroyOnHidden
      width={560}
    >
      {props.children}
      <FailureAlert failure={failure} testId={`${props.testId}-failure`} />
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        preserve={false}
        onValuesChange={(changed: Record<string, unknown>) => clearChangedErrors(form, changed)}
      >
        {props.presets && (
          <Form.Item label={t('review.usualReasons')}>
            <Select
              placeholder={t('review.pickReason')}
              options={props.presets.map((reason) => ({ value: reason, label: reason }))}
              onChange={(reason: string) => form.setFieldsValue({ reason })}
              data-testid="reason-preset"
            />
          </Form.Item>
        )}
        <Form.Item
          name="reason"
          label={props.label}
          extra={
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {props.help}
            </Typography.Text>
          }
        >
          <Input.TextArea
            rows={4}
            maxLength={props.maxLength}
            showCount
            placeholder={props.placeholder}
            data-testid={props.reasonTestId}
            autoFocus
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
