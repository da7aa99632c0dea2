/**
 * An operator's action that shows it is under way (`busy`, for the button's spinner) and a
 * failure as an error message.
 */
import { useState } from 'react';
import { App } from 'antd';
import { errorText } from '../i18n';

export function useBusyAction() {
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  async function run(action: () => Promise<void>) {
    setBusy(true);
    try {
      await action();
    } catch (error) {
      void message.error(errorText(error));
    } finally {
      setBusy(false);
    }
  }
  return { busy, run };
}
