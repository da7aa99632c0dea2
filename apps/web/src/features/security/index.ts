/** The security centre's frame and its sections of this feature (the app composes the page). */
export { SecurityCentre, type SecuritySection } from './security-centre';
export { SessionsSection } from './sessions-section';
export { LoginHistorySection } from './login-history-section';
export { AntiPhishingSection } from './anti-phishing-section';
export { TwoFactorSection } from './two-factor-section';
export { ApiKeysSection } from './api-keys-section';
