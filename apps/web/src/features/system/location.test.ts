/** Typed coordinates of the offline location pages. */
import { describe, expect, it } from 'vitest';
import { coordinateText, parseCoordinate, placeFromQuery } from './location';

describe('parseCoordinate', () => {
  it('takes decimal degrees within range, a comma as the decimal point', () => {
    expect(parseCoordinate('25.2048', 'latitude')).toEqual({ value: 25.2048 });
    expect(parseCoordinate(' -33,8568 ', 'latitude')).toEqual({ value: -33.8568 });
    expect(parseCoordinate('-180', 'longitude')).toEqual({ value: -180 });
    expect(parseCoordinate('90.000000', 'latitude')).toEqual({ value: 90 });
  });

  it('refuses empty, out of range, too precise and non-numeric values with their keys', () => {
    expect(parseCoordinate('', 'latitude')).toEqual({ error: 'hint_coordinateRequired' });
    expect(parseCoordinate('90.1', 'latitude')).toEqual({ error: 'hint_latitudeInvalid' });
    expect(parseCoordinate('180.5', 'longitude')).toEqual({ error: 'hint_longitudeInvalid' });
    expect(parseCoordinate('1.1234567', 'longitude')).toEqual({ error: 'hint_longitudeInvalid' });
    for (const text of ['east', '1e2', '0x10', '12.', 'Infinity', '1,2,3'])
      expect(parseCoordinate(text, 'latitude')).toEqual({ error: 'hint_latitudeInvalid' });
  });
});

describe('placeFromQuery', () => {
  it('reads a place, with its name and address cut to their limits', () => {
    const place = placeFromQuery(
      new URLSearchParams({ latitude: '1.5', longitude: '-2', name: 'N'.repeat(80), address: 'A' }),
    );
    expect(place).toEqual({ latitude: 1.5, longitude: -2, name: 'N'.repeat(60), address: 'A' });
    expect(coordinateText(place!)).toBe('1.500000, -2.000000');
  });

  it('has no place without both valid coordinates', () => {
    expect(placeFromQuery(new URLSearchParams({ latitude: '1' }))).toBeUndefined();
    expect(placeFromQuery(new URLSearchParams({ latitude: '91', longitude: '0' }))).toBeUndefined();
  });
});
