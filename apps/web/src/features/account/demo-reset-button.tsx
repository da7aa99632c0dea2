/**
 * The demo account's reset (issue 19): after a confirmation, the demo account is back at 100,000
 * USDT, its orders cancelled and positions closed at the market price; once a day (the server
 * refuses sooner and says when).
 */
import { useRef, useState } from 'react';
import { Button } from 'antd-mobile';
import { useQueryClient } from '@tanstack/react-query';
import { showToast } from '../../api';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useSubmit } from '../../hooks/use-submit';
import { useTranslation } from '../../i18n/react';
import { newRequestId } from '../../lib/trade';
import { resetDemo } from './profile-api';

export function DemoResetButton() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  // One id per reset the user asks for: a retry after a lost answer is the same reset.
  const requestId = useRef(newRequestId('demo-reset'));
  const { submit, pending } = useSubmit(async () => {
    try {
      await resetDemo(requestId.current);
    } finally {
      setOpen(false);
    }
    requestId.current = newRequestId('demo-reset');
    showToast(t('demo_resetDone'));
    // Balances, positions and orders of the demo book all changed.
    await queryClient.invalidateQueries();
  });
  return (
    <>
      <Button
        block
        color="warning"
        fill="outline"
        onClick={() => setOpen(true)}
        data-testid="demo-reset"
      >
        {t('demo_reset')}
      </Button>
      <ConfirmDialog
        visible={open}
        title={t('demo_reset')}
        content={t('demo_resetConfirm')}
        pending={pending}
        confirmText={t('demo_reset')}
        onClose={() => setOpen(false)}
        onConfirm={() => void submit()}
      />
    </>
  );
}
