/**
 * The security centre (/pages/user/change), composed here because its sections belong to
 * different features and a feature never imports another: the passwords (account), then the
 * security feature's two-factor, sessions and devices, login history, anti-phishing code and API
 * keys. The first is open unless the `tab` query names another.
 *
 * A new section is one import and one entry in SECTIONS (two-factor authentication goes after
 * the passwords).
 */
import { LoginPasswordForm, WithdrawalPasswordForm } from '../features/account/password-page';
import {
  AntiPhishingSection,
  ApiKeysSection,
  LoginHistorySection,
  SecurityCentre,
  SessionsSection,
  TwoFactorSection,
  type SecuritySection,
} from '../features/security';

const SECTIONS: readonly SecuritySection[] = [
  { key: 'login', title: 'account_loginPassword', Component: LoginPasswordForm },
  { key: 'withdraw', title: 'account_withdrawPassword', Component: WithdrawalPasswordForm },
  { key: 'twoFactor', title: 'security_tab_twoFactor', Component: TwoFactorSection },
  { key: 'sessions', title: 'security_tab_sessions', Component: SessionsSection },
  { key: 'history', title: 'security_tab_history', Component: LoginHistorySection },
  { key: 'antiPhishing', title: 'security_tab_antiPhishing', Component: AntiPhishingSection },
  { key: 'apiKeys', title: 'security_tab_apiKeys', Component: ApiKeysSection },
];

export default function SecurityCentrePage() {
  return <SecurityCentre sections={SECTIONS} />;
}
