/** The spec's three password messages, live under the field: broken rules red, kept ones green. */
import { useTranslation } from '../../i18n/react';
import { PASSWORD_PROBLEM, passwordProblems } from '@bourse/shared';

const SHOWN = [
  PASSWORD_PROBLEM.minLength,
  PASSWORD_PROBLEM.needLetter,
  PASSWORD_PROBLEM.lettersAndDigitsOnly,
] as const;

export function PasswordRules({ value }: { value: string }) {
  const { t } = useTranslation();
  const problems = passwordProblems(value);
  return (
    <ul className="password-rules" aria-live="polite" data-testid="password-rules">
      {SHOWN.map((rule) => (
        <li
          key={rule}
          className={!value ? '' : problems.includes(rule) ? 'rule-bad' : 'rule-ok'}
          data-rule={rule}
        >
          {t(rule)}
        </li>
      ))}
      {problems.includes(PASSWORD_PROBLEM.maxLength) && (
        <li className="rule-bad" data-rule={PASSWORD_PROBLEM.maxLength}>
          {t(PASSWORD_PROBLEM.maxLength)}
        </li>
      )}
    </ul>
  );
}
