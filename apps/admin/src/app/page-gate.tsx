/**
 * Which pages an operator may open: a page, when the operator's roles admit its call (else why
 * not, without calling the server), and the first page of the menu as the console's start.
 */
import { lazy, Suspense } from 'react';
import { Navigate } from 'react-router';
import { mayCall } from '../lib/access';
import { PageLoading } from '../components/page-loading';
import { useOperator } from './operator';
import { consolePages, type ConsolePage } from './pages';

const Forbidden = lazy(() => import('./results').then((module) => ({ default: module.Forbidden })));

export function useVisiblePages(): ConsolePage[] {
  const operator = useOperator();
  return consolePages.filter((page) => mayCall(operator, page.route));
}

/** A page, when the operator's roles admit its call; else why not. */
export function PageGate({ page }: { page: ConsolePage }) {
  const operator = useOperator();
  const Page = page.component;
  return (
    <Suspense fallback={<PageLoading />}>
      {mayCall(operator, page.route) ? <Page /> : <Forbidden roles={page.route.roles ?? []} />}
    </Suspense>
  );
}

/** The first page of the menu the operator may use. */
export function Landing() {
  const pages = useVisiblePages();
  return <Navigate to={pages.find((page) => !page.parent)?.path ?? '/account'} replace />;
}
