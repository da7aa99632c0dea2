/**
 * The frame of the login and register screens (custom navigation): close and the language, the
 * title, the form with its big submit button, and the way to the other screen; and what both do
 * once the server let the user in.
 */
import { useQueryClient } from '@tanstack/react-query';
import { GlobalOutline, LeftOutline } from 'antd-mobile-icons';
import { useTranslation } from '../../i18n/react';
import type { SignedIn } from '@bourse/shared';
import { showToast } from '../../api';
import { signIn } from '../../api/session';
import { Form, SubmitButton } from '../../components/form';
import { navigateBack, navigateTo } from '../../lib/navigation';

export function AuthHeader({ title, subtitle }: { title: string; subtitle: string }) {
  const { t } = useTranslation();
  return (
    <>
      <div className="auth-header">
        <button type="button" aria-label={t('common_back')} onClick={() => navigateBack(1)}>
          <LeftOutline className="flip-rtl" />
        </button>
        <button
          type="button"
          aria-label={t('page_language')}
          onClick={() => navigateTo('language')}
        >
          <GlobalOutline />
        </button>
      </div>
      <div className="auth-title">
        <h1>{title}</h1>
        <div className="muted">{subtitle}</div>
      </div>
    </>
  );
}

/** The texts of the two screens: each links to the other, named by its submit button. */
const SCREEN = {
  login: {
    title: 'account_loginTitle',
    subtitle: 'account_loginSubtitle',
    submit: 'account_login',
    question: 'account_noAccount',
    other: 'register',
  },
  register: {
    title: 'account_registerTitle',
    subtitle: 'account_registerSubtitle',
    submit: 'account_register',
    question: 'account_haveAccount',
    other: 'login',
  },
} as const;

export function AuthScreen({
  screen,
  tabs,
  send,
  children,
}: {
  screen: keyof typeof SCREEN;
  /** Above the form: the ways to name the account. */
  tabs: React.ReactNode;
  /** The form's submit (see `useSubmit`). */
  send: { submit: (fingerprint: string) => Promise<void>; pending: boolean };
  /** The fields (and notes) of the form. */
  children: React.ReactNode;
}) {
  const { t } = useTranslation();
  const texts = SCREEN[screen];
  return (
    <div className="page" data-testid={`${screen}-page`}>
      <AuthHeader title={t(texts.title)} subtitle={t(texts.subtitle)} />
      {tabs}
      <Form onSubmit={send.submit}>
        {children}
        <SubmitButton pending={send.pending} large>
          {t(texts.submit)}
        </SubmitButton>
      </Form>
      <div className="auth-switch muted">
        {t(texts.question)}{' '}
        <button type="button" className="link" onClick={() => navigateTo(texts.other)}>
          {t(SCREEN[texts.other].submit)}
        </button>
      </div>
    </div>
  );
}

/** Keeps the session the server opened and says so (`message`). */
export function useSignedIn(): (result: SignedIn, message: string) => void {
  const queryClient = useQueryClient();
  return (result, message) => {
    signIn(result);
    queryClient.setQueryData(['userInfo'], result.userInfo);
    showToast(message);
  };
}
