/**
 * The drawer a setting is edited in: a form checked with the call's shared zod schema (each
 * refusal on its field, lib/form.ts), then saved; a refusal of the server goes on the field it
 * names, or above the form. A save that changed nothing (`hint_48`) says so. After a save the
 * page's lists are refreshed (`refresh`: their query keys) and the drawer closes, unless `save`
 * answers `'stay'` (a step before the save, such as a preview). A page mounts the drawer only
 * while a setting is edited, so each one starts from its stored values with a fresh form.
 */
import type { ReactNode } from 'react';
import { App, Button, Drawer, Form, Space } from 'antd';
import type { FormInstance } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { NOTHING_TO_DO_MSG } from '@bourse/shared';
import { checkWith } from '../../lib/form';
import { FormNotice, useCallForm } from '../call-form';

export type SaveResult = { msg: string } | 'stay';

export interface SettingDrawerProps<S extends z.ZodType> {
  title: string;
  /** The call's body schema: the form's values (with `fixed`) must pass it. */
  schema: S;
  /** Values the form starts with (the setting as stored). */
  initialValues: Record<string, unknown>;
  /** Values sent with the form's but not edited (the setting's key). */
  fixed?: Record<string, unknown>;
  /** The fields the form shows: a refusal naming one goes on it. */
  fields: readonly string[];
  save: (body: z.output<S>, form: FormInstance) => Promise<SaveResult>;
  /** The query keys of the lists to refresh after a save. */
  refresh: readonly string[];
  onClose: () => void;
  /** Called on any change of a value (a preview goes stale). */
  onValuesChange?: () => void;
  children: ReactNode;
  /** Above the buttons (a preview of the save). */
  footerExtra?: ReactNode;
  submitLabel?: string;
  testId: string;
  width?: number;
}

export function SettingDrawer<S extends z.ZodType>(props: SettingDrawerProps<S>) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { form, busy, failure, formProps } = useCallForm(props.fields, (values, formInstance) => {
    const body = checkWith(formInstance, props.schema, { ...values, ...props.fixed });
    if (body === undefined) return;
    return async () => {
      const result = await props.save(body, formInstance);
      if (result === 'stay') return;
      void message.success(
        t(result.msg === NOTHING_TO_DO_MSG ? 'settings.common.unchanged' : 'settings.common.saved'),
      );
      await Promise.all(
        props.refresh.map((key) => queryClient.invalidateQueries({ queryKey: [key] })),
      );
      props.onClose();
    };
  });

  return (
    <Drawer
      open
      title={props.title}
      width={props.width ?? 520}
      onClose={props.onClose}
      destroyOnHidden
      data-testid={props.testId}
      footer={
        <div>
          {props.footerExtra}
          <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
            <Button onClick={props.onClose}>{t('common.cancel')}</Button>
            <Button
              type="primary"
              loading={busy}
              onClick={() => form.submit()}
              data-testid="setting-save"
            >
              {props.submitLabel ?? t('settings.common.save')}
            </Button>
          </Space>
        </div>
      }
    >
      <Form
        {...formProps}
        initialValues={props.initialValues}
        onValuesChange={(changed: Record<string, unknown>) => {
          formProps.onValuesChange(changed);
          props.onValuesChange?.();
        }}
      >
        <FormNotice message={failure} />
        {props.children}
      </Form>
    </Drawer>
  );
}
