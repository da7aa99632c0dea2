/** The two ways to name an account, email or phone with its area code, as login and register ask. */
import { Input } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { Field } from '../../components/field';
import { AreaCodePicker } from './area-code-picker';

export type Channel = 'email' | 'phone';

export function ChannelTabs({
  channels,
  value,
  onChange,
}: {
  channels: readonly Channel[];
  value: Channel;
  onChange: (channel: Channel) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="segmented" role="group">
      {channels.map((name) => (
        <button
          key={name}
          type="button"
          aria-pressed={value === name}
          onClick={() => onChange(name)}
        >
          {t(name === 'email' ? 'account_byEmail' : 'account_byPhone')}
        </button>
      ))}
    </div>
  );
}

export function AccountField(props: {
  id: string;
  channel: Channel;
  value: string;
  onChange: (value: string) => void;
  areaCode: string;
  onAreaCodeChange: (areaCode: string) => void;
  error: string | undefined;
}) {
  const { t } = useTranslation();
  const email = props.channel === 'email';
  return (
    <Field label={t(email ? 'field_email' : 'field_phone')} error={props.error} htmlFor={props.id}>
      {!email && <AreaCodePicker value={props.areaCode} onChange={props.onAreaCodeChange} />}
      <Input
        id={props.id}
        name="account"
        type={email ? 'email' : 'tel'}
        autoComplete={email ? 'email' : 'tel-national'}
        placeholder={t(email ? 'account_emailPlaceholder' : 'account_phonePlaceholder')}
        value={props.value}
        maxLength={email ? 254 : 20}
        onChange={props.onChange}
        clearable
      />
    </Field>
  );
}
