/**
 * The console's routes (hash routes: /admin/#/deposits, so the server serves one page): the
 * sign-in page; behind the sign-in guard the first-password page, the two-factor set-up page and
 * the layout with each page of pages.tsx, shown to the roles its call admits.
 */
import { lazy, Suspense } from 'react';
import { createHashRouter, Navigate } from 'react-router';
import { consolePages } from './pages';
import { Landing, PageGate } from './page-gate';
import { SignedIn } from './signed-in';
import { PageLoading } from '../components/page-loading';

const SignInPage = lazy(() => import('../pages/sign-in-page'));
const ConsoleLayout = lazy(() => import('./console-layout'));
const NotFound = lazy(() => import('./results').then((module) => ({ default: module.NotFound })));
const FirstPasswordPage = lazy(() => import('../pages/first-password-page'));
const TwoFactorSetupPage = lazy(() => import('../pages/two-factor-setup-page'));

export const router = createHashRouter([
  {
    path: '/sign-in',
    element: (
      <Suspense fallback={<PageLoading />}>
        <SignInPage />
      </Suspense>
    ),
  },
  {
    element: <SignedIn />,
    children: [
      {
        path: '/first-password',
        element: (
          <Suspense fallback={<PageLoading />}>
            <FirstPasswordPage />
          </Suspense>
        ),
      },
      {
        path: '/two-factor-setup',
        element: (
          <Suspense fallback={<PageLoading />}>
            <TwoFactorSetupPage />
          </Suspense>
        ),
      },
      {
        element: (
          <Suspense fallback={<PageLoading />}>
            <ConsoleLayout />
          </Suspense>
        ),
        children: [
          { index: true, element: <Landing /> },
          ...consolePages.map((page) => ({ path: page.path, element: <PageGate page={page} /> })),
          { path: '/index.html', element: <Navigate to="/" replace /> },
          {
            path: '*',
            element: (
              <Suspense fallback={<PageLoading />}>
                <NotFound />
              </Suspense>
            ),
          },
        ],
      },
    ],
  },
]);
