/**
 * A refusal or failure in red above a form (an editor drawer's, a reason dialog's), with its test
 * id; nothing while there is none.
 */
import { Alert } from 'antd';

export function FailureAlert({ failure, testId }: { failure?: string; testId: string }) {
  return failure ? (
    <Alert
      type="error"
      showIcon
      message={failure}
      style={{ marginBottom: 16 }}
      data-testid={testId}
    />
  ) : null;
}
