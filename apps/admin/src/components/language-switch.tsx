import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { changeLanguage, CONSOLE_LANGUAGES, type ConsoleLanguage } from '../i18n';

/**
 * The console's language, English or Simplified Chinese, kept in this browser. Two choices side by
 * side: one click, and lighter on the sign-in screen than a select.
 */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  return (
    <Segmented<ConsoleLanguage>
      data-testid="language-switch"
      aria-label={t('common.language')}
      size="small"
      value={i18n.language === 'zh' ? 'zh' : 'en'}
      onChange={(language) => void changeLanguage(language)}
      options={CONSOLE_LANGUAGES.map((language) => ({
        value: language.key,
        label: <span lang={language.key}>{language.name}</span>,
      }))}
    />
  );
}
