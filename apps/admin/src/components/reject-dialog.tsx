/**
 * The reason a request is refused with, which the user reads: one of the usual reasons (put in
 * the text, to edit) or the operator's own words. Checked with the call's schema
 * (reviewRejectBody: 1 to 500 characters, line breaks allowed); a refusal of the server is shown
 * on the reason when it names it.
 */
import { useTranslation } from 'react-i18next';
import { reviewRejectBody } from '@bourse/shared';
import { ReasonDialog } from './reason-dialog';

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
  return (
    <ReasonDialog
      open={open}
      title={title}
      okText={t('review.reject')}
      testId="reject"
      reasonTestId="reason"
      schema={reviewRejectBody}
      // The id is the dialog's own: only the reason is the operator's to check here.
      body={(reason) => ({ id: 1, reason })}
      onSubmit={(body) => onReject(body.reason)}
      onClose={onClose}
      label={t('review.reason')}
      help={t('review.reasonHelp')}
      maxLength={REASON_MAX}
      presets={reasons}
    />
  );
}
