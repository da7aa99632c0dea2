import { GlobalOutlined } from '@ant-design/icons';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { changeLanguage, CONSOLE_LANGUAGES, currentLanguage, type ConsoleLanguage } from '../i18n';

/** The console's language: English or Simplified Chinese, kept in this browser. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  return (
    <Select<ConsoleLanguage>
      data-testid="language-switch"
      aria-label={t('common.language')}
      value={i18n.language === 'zh' ? 'zh' : currentLanguage()}
      onChange={(language) => void changeLanguage(language)}
      options={CONSOLE_LANGUAGES.map((language) => ({
        value: language.key,
        label: language.name,
      }))}
      prefix={<GlobalOutlined />}
      style={{ width: 136 }}
      variant="borderless"
    />
  );
}
