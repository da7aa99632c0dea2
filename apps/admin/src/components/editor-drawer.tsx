/**
 * The drawer an operator writes an entry in (content, site messages): its title, the form, a
 * refusal of the server above it, and Cancel / Save below. The test ids are `<testId>-editor`,
 * `<testId>-save` and `<testId>-failure`.
 */
import { useState, type ReactNode } from 'react';
import { App, Button, Drawer, Space } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorText } from '../i18n';
import { FailureAlert } from './failure-alert';

/** A save under way, and the last refusal (shown above the form). */
export interface EditorSaving {
  busy: boolean;
  failure?: string;
}

/**
 * What an editor's save does around its call: busy meanwhile, a refusal shown; once done, `saved`
 * as a toast, the lists under `queryKey` read again and the drawer closed. `setFailure` shows a
 * failure found before sending.
 */
export function useEditorSave({
  saved,
  queryKey,
  onClose,
}: {
  saved: string;
  queryKey: readonly unknown[];
  onClose(): void;
}) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  const send = async (call: () => Promise<unknown>) => {
    setBusy(true);
    setFailure(undefined);
    try {
      await call();
      void message.success(saved);
      await queryClient.invalidateQueries({ queryKey });
      onClose();
    } catch (error) {
      setFailure(errorText(error));
    } finally {
      setBusy(false);
    }
  };
  return { busy, failure, setFailure, send };
}

export function EditorDrawer({
  title,
  testId,
  saveText,
  saving,
  onSave,
  onClose,
  children,
}: {
  title: string;
  testId: string;
  saveText: string;
  saving: EditorSaving;
  onSave(): void;
  onClose(): void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Drawer
      open
      width={960}
      title={title}
      onClose={onClose}
      destroyOnHidden
      data-testid={`${testId}-editor`}
      footer={
        <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button
            type="primary"
            loading={saving.busy}
            onClick={onSave}
            data-testid={`${testId}-save`}
          >
            {saveText}
          </Button>
        </Space>
      }
    >
      <FailureAlert failure={saving.failure} testId={`${testId}-failure`} />
      {children}
    </Drawer>
  );
}
