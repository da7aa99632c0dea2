/**
 * Binds a wallet address (bindAddress): a crypto currency (query `currencyId` preselects it), one
 * of its networks (chosen by the user when there are several, since a wrong network loses the
 * funds), the address, checked against the network's format before anything is sent, and an
 * optional remark.
 */
import { useState } from 'react';
import { Input, TextArea } from 'antd-mobile';
import { PayCircleOutline } from 'antd-mobile-icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/react';
import { useSearchParams } from 'react-router';
import { isWalletAddress, networksOf } from '@bourse/shared';
import { showToast } from '../../api';
import { ChoiceRow, type ChoiceRowProps } from '../../components/choice-row';
import { Field } from '../../components/field';
import { FieldGroup } from '../../components/field-group';
import { Form, SubmitButton } from '../../components/form';
import { SignedInScreen } from '../../components/signed-in-screen';
import { useSubmit } from '../../hooks/use-submit';
import { translate } from '../../i18n';
import { navigateBack } from '../../lib/navigation';
import { addWalletAddress, fetchCryptoCurrencies, QUERY_KEY, type CryptoCurrency } from './api';
import { EmptyState, Loading } from './parts';

const ADDRESS_MAX = 128;
const REMARK_MAX = 64;

/** A labelled row of chips, one chosen, with what is wrong with the choice under it. */
function Chips<T extends string | number>({
  label,
  error,
  ...row
}: Omit<ChoiceRowProps<T>, 'className' | 'label'> & { label: string; error?: string }) {
  return (
    <FieldGroup label={label} error={error}>
      <ChoiceRow {...row} className="chips" label={label} />
    </FieldGroup>
  );
}

export default function BindAddressPage() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [search] = useSearchParams();
  const currencies = useQuery({
    queryKey: QUERY_KEY.cryptoCurrencies,
    queryFn: fetchCryptoCurrencies,
    staleTime: 60_000,
  });
  // Only currencies that can be sent to an address.
  const choices = (currencies.data ?? []).filter(
    (currency) => networksOf(currency.walletAddressType).length > 0,
  );
  const [currencyId, setCurrencyId] = useState<number | undefined>(
    () => Number(search.get('currencyId')) || undefined,
  );
  const currency: CryptoCurrency | undefined =
    choices.find((row) => row.id === currencyId) ?? choices[0];
  const networks = currency ? networksOf(currency.walletAddressType) : [];
  const [chosenNetwork, setNetwork] = useState<string | undefined>();
  // With one network there is nothing to choose; with several the user must pick one.
  const network =
    chosenNetwork && networks.includes(chosenNetwork)
      ? chosenNetwork
      : networks.length === 1
        ? networks[0]
        : undefined;
  const [address, setAddress] = useState('');
  const [remark, setRemark] = useState('');
  const [touched, setTouched] = useState(false);
  const [addressEdited, setAddressEdited] = useState(false);

  const trimmed = address.trim();
  const formatHint =
    network && i18n.exists(`address_format_${network}`) ? t(`address_format_${network}`) : '';
  const errors = {
    network: network ? undefined : t('address_pickNetwork'),
    address: !trimmed
      ? translate('hint_paramRequired', [t('address_address')])
      : network && !isWalletAddress(network, trimmed)
        ? translate('hint_walletAddressInvalid', [network])
        : undefined,
    remark:
      remark.trim().length > REMARK_MAX
        ? translate('hint_paramTooLong', [t('address_remark'), REMARK_MAX])
        : undefined,
  };

  const { submit, pending } = useSubmit(async () => {
    setTouched(true);
    if (!currency || !network || Object.values(errors).some(Boolean)) return;
    await addWalletAddress({
      currencyId: currency.id,
      network,
      address: trimmed,
      remark: remark.trim() || undefined,
    });
    await queryClient.invalidateQueries({ queryKey: QUERY_KEY.walletAddresses });
    showToast(t('address_saved'));
    navigateBack(1);
  });

  return (
    <SignedInScreen testId="bind-address-page" title={t('address_bindTitle')}>
      {currencies.isPending && <Loading />}
      {currencies.isSuccess && !currency && (
        <EmptyState icon={<PayCircleOutline />} text={t('address_noCurrency')} />
      )}
      {currency && (
        <Form onSubmit={submit} className="form pm-form-body" testId="address-form">
          <Chips
            label={t('address_currency')}
            options={choices.map((row) => row.id)}
            text={(id) => choices.find((row) => row.id === id)?.currencyName ?? ''}
            value={currency.id}
            onChange={(id) => {
              setCurrencyId(id);
              setNetwork(undefined);
            }}
            testId="address-currency"
          />
          <Chips
            label={t('address_network')}
            options={networks}
            text={(name) => name}
            value={network}
            onChange={setNetwork}
            testId="address-network"
            error={touched ? errors.network : undefined}
          />
          <Field
            label={t('address_address')}
            error={touched || addressEdited ? errors.address : undefined}
            htmlFor="wallet-address"
          >
            <TextArea
              id="wallet-address"
              className="pm-address-input"
              autoSize={{ minRows: 2, maxRows: 4 }}
              maxLength={ADDRESS_MAX}
              placeholder={translate('address_addressPlaceholder', [
                network ?? currency.currencyName,
              ])}
              value={address}
              onChange={setAddress}
              onBlur={() => setAddressEdited(address.trim() !== '')}
            />
          </Field>
          {formatHint && (
            <p className="pm-note" data-testid="address-format" style={{ marginTop: -6 }}>
              {formatHint}
            </p>
          )}
          <Field
            label={`${t('address_remark')} (${t('address_optional')})`}
            error={touched ? errors.remark : undefined}
            htmlFor="wallet-remark"
          >
            <Input
              id="wallet-remark"
              maxLength={REMARK_MAX}
              placeholder={t('address_remarkPlaceholder')}
              value={remark}
              onChange={setRemark}
              clearable
            />
          </Field>
          <p className="pm-note">{t('address_networkWarning')}</p>
          <SubmitButton pending={pending} large>
            {t('address_bindSubmit')}
          </SubmitButton>
        </Form>
      )}
    </SignedInScreen>
  );
}
