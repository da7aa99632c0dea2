/**
 * A list's rows edited in a modal form: which row is open (or a new one), its values put in the
 * form, the save (the form's values, with the row's id when it is not new) and the delete, each
 * told with a message and the list read again.
 */
import { useState } from 'react';
import { App, Form } from 'antd';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { errorText } from '../i18n';

export function useRowEditor<Row extends { id: number }, Values extends object>(options: {
  queryKey: QueryKey;
  /** The form's values for a row, or for a new one. */
  valuesOf(row: Row | 'new'): Values;
  save(values: Values & { id?: number }): Promise<unknown>;
  remove(id: number): Promise<unknown>;
  savedText: string;
  deletedText: string;
}) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Row | 'new' | null>(null);
  const [form] = Form.useForm<Values>();

  function open(row: Row | 'new') {
    setEditing(row);
    form.setFieldsValue(options.valuesOf(row) as Parameters<typeof form.setFieldsValue>[0]);
  }

  async function run(work: () => Promise<unknown>, done: string) {
    try {
      await work();
      void message.success(done);
      void queryClient.invalidateQueries({ queryKey: options.queryKey });
      return true;
    } catch (error) {
      void message.error(errorText(error));
      return false;
    }
  }

  async function save() {
    // A field's problem shows under it; nothing is sent.
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const id = editing && editing !== 'new' ? { id: editing.id } : {};
    if (await run(() => options.save({ ...values, ...id }), options.savedText)) setEditing(null);
  }

  const remove = (id: number) => run(() => options.remove(id), options.deletedText);

  return { form, editing, open, close: () => setEditing(null), save, remove };
}
