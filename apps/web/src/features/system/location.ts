/**
 * Coordinates typed by hand (the offline location picker): latitude -90..90 and longitude
 * -180..180 in decimal degrees, at most 6 decimals (about 0.1 m), a comma taken as the decimal
 * point. Each refusal is a translation key.
 */
import { getItem, setItem } from '../../lib/storage';

export interface PlaceChoice {
  latitude: number;
  longitude: number;
  name: string;
  address: string;
}

/** Where the chosen place is kept for the screen that asked for it. */
export const CHOSEN_LOCATION_KEY = 'chosenLocation';

export const NAME_MAX = 60;
export const ADDRESS_MAX = 140;

const DECIMAL = /^[+-]?\d{1,3}(\.\d{1,6})?$/;

/** A coordinate's text as a number, or the key of what is wrong with it. */
export function parseCoordinate(
  text: string,
  axis: 'latitude' | 'longitude',
): { value: number } | { error: string } {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return { error: 'hint_coordinateRequired' };
  if (!DECIMAL.test(trimmed))
    return { error: axis === 'latitude' ? 'hint_latitudeInvalid' : 'hint_longitudeInvalid' };
  const value = Number(trimmed);
  const limit = axis === 'latitude' ? 90 : 180;
  if (Math.abs(value) > limit)
    return { error: axis === 'latitude' ? 'hint_latitudeInvalid' : 'hint_longitudeInvalid' };
  return { value };
}

/** A place given in a query (open-location, or the picker's starting point), if it is valid. */
export function placeFromQuery(query: URLSearchParams): PlaceChoice | undefined {
  const latitude = parseCoordinate(query.get('latitude') ?? '', 'latitude');
  const longitude = parseCoordinate(query.get('longitude') ?? '', 'longitude');
  if (!('value' in latitude) || !('value' in longitude)) return undefined;
  return {
    latitude: latitude.value,
    longitude: longitude.value,
    name: (query.get('name') ?? '').slice(0, NAME_MAX),
    address: (query.get('address') ?? '').slice(0, ADDRESS_MAX),
  };
}

/** `25.204800, 55.270800`: what is copied, readable by every map application. */
export function coordinateText(place: Pick<PlaceChoice, 'latitude' | 'longitude'>): string {
  return `${place.latitude.toFixed(6)}, ${place.longitude.toFixed(6)}`;
}

export function storeChosenPlace(place: PlaceChoice): void {
  setItem(CHOSEN_LOCATION_KEY, place);
}

export function chosenPlace(): PlaceChoice | undefined {
  return getItem<PlaceChoice>(CHOSEN_LOCATION_KEY);
}
