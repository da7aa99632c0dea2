import { describe, expect, it } from 'vitest';
import { authApplyBody, ID_TYPE } from '@bourse/shared';
import {
  basicProblems,
  cleanIdNumber,
  fieldOfRefusal,
  imageProblems,
  isValidIdNumber,
  reasonText,
  type BasicValues,
} from './checks';

const valid: BasicValues = {
  realName: 'Ada Lovelace',
  idType: ID_TYPE.idCard,
  idNumber: '11010519491231002X',
  phone: '',
};

/** The server's verdict on the same values: the field of its first problem, if any. */
function serverField(values: BasicValues): string | undefined {
  const result = authApplyBody.safeParse({
    authLevel: 0,
    ...values,
    phone: values.phone || undefined,
    requestId: 'req-12345678',
  });
  return result.success ? undefined : String(result.error.issues[0]?.path[0]);
}

describe('identity form: document numbers', () => {
  it.each([
    [ID_TYPE.idCard, '110105491231002', true],
    [ID_TYPE.idCard, '110105194912310021', true],
    [ID_TYPE.idCard, ' 11010519491231002x ', true],
    [ID_TYPE.idCard, '11010519491231002', false],
    [ID_TYPE.idCard, 'E12345678', false],
    [ID_TYPE.passport, 'e12345678', true],
    [ID_TYPE.passport, 'E1234', true],
    [ID_TYPE.passport, 'E123', false],
    [ID_TYPE.drivingLicence, 'DL-12345', false],
    [ID_TYPE.drivingLicence, 'A'.repeat(21), false],
  ])('type %i, %j: %s', (idType, number, ok) => {
    expect(isValidIdNumber(idType, number)).toBe(ok);
    // The browser decides as the server's schema does.
    expect(serverField({ ...valid, idType, idNumber: number }) === undefined).toBe(ok);
  });

  it('sends the number trimmed and in capitals, as the server stores it', () => {
    expect(cleanIdNumber('  e12345678 ')).toBe('E12345678');
  });
});

describe('identity form: the basic fields', () => {
  it('finds nothing wrong with a complete request', () => {
    expect(basicProblems(valid)).toEqual({});
    expect(basicProblems({ ...valid, phone: '+44 20 7946 0000' })).toEqual({});
  });

  it('names each field that is wrong, with the message the server would give', () => {
    expect(basicProblems({ realName: '  ', idType: 7, idNumber: '', phone: '' })).toEqual({
      realName: { key: 'hint_paramRequired', params: ['realName'] },
      idType: { key: 'hint_paramRequired', params: ['idType'] },
      idNumber: { key: 'hint_paramRequired', params: ['idNumber'] },
    });
    expect(basicProblems({ ...valid, idNumber: '12345' }).idNumber).toEqual({
      key: 'hint_idNumberInvalid',
      params: ['idNumber'],
    });
    expect(basicProblems({ ...valid, realName: 'x'.repeat(65) }).realName).toEqual({
      key: 'hint_paramTooLong',
      params: ['realName', 64],
    });
    expect(basicProblems({ ...valid, phone: '1'.repeat(21) }).phone?.key).toBe('hint_paramTooLong');
    expect(basicProblems({ ...valid, realName: 'Ada\u0000' }).realName?.key).toBe(
      'hint_textInvalidCharacters',
    );
  });

  it('agrees with the server on the field of each problem', () => {
    for (const values of [
      { ...valid, realName: '' },
      { ...valid, realName: 'x'.repeat(65) },
      { ...valid, idNumber: '' },
      { ...valid, idNumber: '123' },
      { ...valid, phone: '1'.repeat(21) },
    ]) {
      const [field] = Object.keys(basicProblems(values));
      expect(field).toBe(serverField(values));
    }
  });

  it('asks for each of the three images of an advanced request', () => {
    expect(Object.keys(imageProblems({ front: 'data:…' }))).toEqual(['backImage', 'holdImage']);
    expect(imageProblems({ front: 'a', back: 'b', hold: 'c' })).toEqual({});
  });
});

describe('identity form: refusals of the server', () => {
  it('puts a refusal under its field, or under none', () => {
    expect(fieldOfRefusal('hint_idNumberInvalid', ['idNumber'])).toBe('idNumber');
    expect(fieldOfRefusal('hint_authNameMismatch', [])).toBe('realName');
    expect(fieldOfRefusal('hint_paramTooLong', ['realName', 64])).toBe('realName');
    expect(fieldOfRefusal('hint_paramRequired', ['holdImage'])).toBe('holdImage');
    expect(fieldOfRefusal('hint_authUnderReview', [])).toBeUndefined();
    expect(fieldOfRefusal('hint_paramInvalid', ['requestId'])).toBeUndefined();
  });

  it("shows an operator's reason translated when it is a message key, as written otherwise", () => {
    const texts: Record<string, string> = { hint_idNumberInvalid: 'The number is not valid' };
    const exists = (key: string) => key in texts;
    const translate = (key: string) => texts[key] ?? key;
    expect(reasonText('hint_idNumberInvalid', exists, translate)).toBe('The number is not valid');
    expect(reasonText('The photo is blurred', exists, translate)).toBe('The photo is blurred');
    expect(reasonText('hint_unknownKey', exists, translate)).toBe('hint_unknownKey');
  });
});
