// @vitest-environment node
/**
 * The security centre's calls (securityApi: sessions, endSession, endOtherSessions, loginHistory,
 * antiPhishing, setAntiPhishing) against a real HTTP server: each goes to its path with its method
 * and encoding, with the session's token, and answers what the sections read; the device's name
 * reads from what the server could tell.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { securityApi } from '@bourse/shared';
import { ApiError } from '../../api';
import { setItem, STORAGE_KEY } from '../../lib/storage';
import { rowsAnswer, serveAsApiLine } from '../../test/api-line';
import {
  endOtherSessions,
  endSession,
  fetchAntiPhishing,
  fetchLoginHistory,
  fetchSessions,
  setAntiPhishing,
} from './api';
import { deviceText } from './device-text';

const server = serveAsApiLine();
const done = (data?: unknown) => ({ body: { code: 200, msg: 'hint_success', data } });
const form = (body: string) => Object.fromEntries(new URLSearchParams(body));

beforeEach(() => {
  setItem(STORAGE_KEY.token, 'secret-token');
});

const session = {
  id: 4,
  device: { browser: 'Safari 17', os: 'iOS 17', type: 'mobile' as const },
  userAgent: 'Mozilla/5.0 (iPhone…)',
  ip: '203.0.113.7',
  createTime: '2026-11-27T08:00:00.000Z',
  lastSeenTime: '2026-11-27T08:05:00.000Z',
  current: false,
};

describe('security calls', () => {
  it('reads a page of sessions and of the login history with the token', async () => {
    server.answer(securityApi.sessions.path, rowsAnswer([session]));
    server.answer(
      securityApi.loginHistory.path,
      rowsAnswer([
        {
          id: 9,
          time: session.createTime,
          result: 'wrongPassword',
          ip: null,
          device: session.device,
          userAgent: null,
        },
      ]),
    );
    await expect(fetchSessions({ pageNum: 2, pageSize: 20 })).resolves.toEqual({
      rows: [session],
      total: 1,
    });
    const history = await fetchLoginHistory({ pageNum: 1, pageSize: 20 });
    expect(history.rows[0]!.result).toBe('wrongPassword');
    const [sessions, attempts] = server.requests;
    expect(sessions).toMatchObject({ method: 'GET', path: securityApi.sessions.path });
    expect(Object.fromEntries(sessions!.query)).toEqual({ pageNum: '2', pageSize: '20' });
    expect(sessions!.headers.authorization).toBe('Bearer secret-token');
    expect(attempts).toMatchObject({ method: 'GET', path: securityApi.loginHistory.path });
  });

  it('ends one session, then every other, by form posts', async () => {
    server.answer(securityApi.endSession.path, done());
    server.answer(securityApi.endOtherSessions.path, done({ sessionsEnded: 2 }));
    await endSession(4);
    await expect(endOtherSessions()).resolves.toEqual({ sessionsEnded: 2 });
    const [one, others] = server.requests;
    expect(one).toMatchObject({ method: 'POST', path: securityApi.endSession.path });
    expect(form(one!.body)).toEqual({ id: '4' });
    expect(others).toMatchObject({ method: 'POST', path: securityApi.endOtherSessions.path });
  });

  it("hands a session that is not the user's to the caller", async () => {
    server.answer(securityApi.endSession.path, {
      status: 404,
      body: { code: 500, msg: 'hint_notFound', params: ['id'] },
    });
    const error = await endSession(5).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ApiError);
  });

  it('reads and sets the anti-phishing code, the two-factor code only when given', async () => {
    const state = { code: 'Blue Heron 42', updateTime: session.createTime };
    server.answer(securityApi.antiPhishing.path, done({ code: null, updateTime: null }));
    server.answer(securityApi.setAntiPhishing.path, done(state));
    await expect(fetchAntiPhishing()).resolves.toEqual({ code: null, updateTime: null });
    await expect(setAntiPhishing('Blue Heron 42', 'Secret123')).resolves.toEqual(state);
    await setAntiPhishing('Blue Heron 42', 'Secret123', '123456');
    const [, first, second] = server.requests;
    expect(first).toMatchObject({ method: 'POST', path: securityApi.setAntiPhishing.path });
    expect(form(first!.body)).toEqual({ code: 'Blue Heron 42', userPwd: 'Secret123' });
    expect(form(second!.body)).toEqual({
      code: 'Blue Heron 42',
      userPwd: 'Secret123',
      twoFactorCode: '123456',
    });
  });

  it('names a device by browser and system, else by its kind', () => {
    expect(deviceText(session.device)).toBe('Safari 17 · iOS 17');
    expect(deviceText({ browser: null, os: null, type: 'unknown' })).toBe('Unknown device');
  });
});
