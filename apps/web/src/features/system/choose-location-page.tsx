/**
 * /choose-location: a location picker that works offline. The place is typed (latitude and
 * longitude in decimal degrees, each checked as it is typed, with a name and an address if
 * wanted) or tapped on the drawn map; nothing is sent to a map service. "Use this location" keeps
 * the choice on the device (`chosenLocation`) for the screen that opened the picker and goes back
 * to it. A starting point may come in the query (`latitude`, `longitude`, `name`, `address`).
 */
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button, Input } from 'antd-mobile';
import { useTranslation } from '../../i18n/react';
import { Field } from '../../components/field';
import { PageHeader } from '../../components/page-header';
import { navigateBack } from '../../lib/navigation';
import { showToast } from '../../lib/toast';
import { LocationMap } from './location-map';
import {
  ADDRESS_MAX,
  NAME_MAX,
  parseCoordinate,
  placeFromQuery,
  storeChosenPlace,
} from './location';
import './location.css';

export default function ChooseLocationPage() {
  const { t } = useTranslation();
  const [query] = useSearchParams();
  const start = placeFromQuery(query);
  const [latitudeText, setLatitudeText] = useState(start ? String(start.latitude) : '');
  const [longitudeText, setLongitudeText] = useState(start ? String(start.longitude) : '');
  const [name, setName] = useState(start?.name ?? '');
  const [address, setAddress] = useState(start?.address ?? '');
  const [touched, setTouched] = useState({ latitude: false, longitude: false });

  const latitude = parseCoordinate(latitudeText, 'latitude');
  const longitude = parseCoordinate(longitudeText, 'longitude');
  const latitudeValue = 'value' in latitude ? latitude.value : undefined;
  const longitudeValue = 'value' in longitude ? longitude.value : undefined;
  const errorOf = (result: typeof latitude, shown: boolean) =>
    shown && 'error' in result ? t(result.error) : undefined;

  function pick(lat: number, lon: number) {
    setLatitudeText(String(lat));
    setLongitudeText(String(lon));
    setTouched({ latitude: true, longitude: true });
  }

  function confirm() {
    setTouched({ latitude: true, longitude: true });
    if (latitudeValue === undefined || longitudeValue === undefined) return;
    storeChosenPlace({
      latitude: latitudeValue,
      longitude: longitudeValue,
      name: name.trim(),
      address: address.trim(),
    });
    showToast(t('location_chosen'));
    navigateBack(1);
  }

  return (
    <div className="page" data-testid="choose-location-page">
      <PageHeader title={t('page_chooseLocation')} />
      <form
        className="page-body stack"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          confirm();
        }}
      >
        <LocationMap latitude={latitudeValue} longitude={longitudeValue} onPick={pick} />
        <div className="row location-inputs" style={{ alignItems: 'flex-start' }}>
          <div style={{ flex: 1, minWidth: 0 }}>
            <Field
              label={t('location_latitude')}
              error={errorOf(latitude, touched.latitude)}
              htmlFor="location-latitude"
            >
              <Input
                id="location-latitude"
                inputMode="decimal"
                placeholder="25.2048"
                value={latitudeText}
                onChange={setLatitudeText}
                onBlur={() => setTouched((was) => ({ ...was, latitude: true }))}
                data-testid="location-latitude"
              />
            </Field>
          </div>
          <div style={{ flex: 1, minWidth: 0 }}>
            <Field
              label={t('location_longitude')}
              error={errorOf(longitude, touched.longitude)}
              htmlFor="location-longitude"
            >
              <Input
                id="location-longitude"
                inputMode="decimal"
                placeholder="55.2708"
                value={longitudeText}
                onChange={setLongitudeText}
                onBlur={() => setTouched((was) => ({ ...was, longitude: true }))}
                data-testid="location-longitude"
              />
            </Field>
          </div>
        </div>
        <span className="muted" style={{ fontSize: 12 }}>
          {t('location_rangeHint')}
        </span>
        <Field label={`${t('location_name')} (${t('address_optional')})`} htmlFor="location-name">
          <Input
            id="location-name"
            maxLength={NAME_MAX}
            value={name}
            onChange={setName}
            data-testid="location-name"
          />
        </Field>
        <Field
          label={`${t('location_address')} (${t('address_optional')})`}
          htmlFor="location-address"
        >
          <Input
            id="location-address"
            maxLength={ADDRESS_MAX}
            value={address}
            onChange={setAddress}
            data-testid="location-address"
          />
        </Field>
        <Button block color="primary" type="submit" data-testid="location-confirm">
          {t('location_use')}
        </Button>
      </form>
    </div>
  );
}
