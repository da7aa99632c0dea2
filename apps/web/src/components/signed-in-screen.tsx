/** A screen for signed-in users only: the standard header (back and title) over its content. */
import { PageHeader } from './page-header';
import { RequireSignIn } from './require-sign-in';

export function SignedInScreen({
  testId,
  title,
  right,
  children,
}: {
  testId: string;
  title: string;
  /** What the header shows at its end: a link to the records, a badge. */
  right?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <RequireSignIn>
      <div className="page" data-testid={testId}>
        <PageHeader title={title} right={right} />
        {children}
      </div>
    </RequireSignIn>
  );
}
