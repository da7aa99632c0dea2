// @vitest-environment node
/**
 * The launch calls of the route table (settingsApi) that the launch flow test does not cover:
 * page configuration and the pop-up, against a real HTTP server.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { rowsAnswer, serveAsApiLine } from '../test/api-line';
import { getItem, pageConfigKey, removeItem, STORAGE_KEY } from '../lib/storage';
import { loadNewPopUp, loadPageConfig, markPopUpSeen } from './launch';

const server = serveAsApiLine();
const rows = rowsAnswer;

beforeEach(() => {
  removeItem(STORAGE_KEY.popUpVersion);
});

describe('launch calls', () => {
  it("loads a page's configuration by its path and keeps it on the device", async () => {
    const modules = [
      { pagePath: 'pages/tabs/home/home-k', module: 'banner', isVisible: 1, desc: '', sort: 1 },
    ];
    server.answer('/api/appConfig/list', rows(modules));
    await expect(loadPageConfig('pages/tabs/home/home-k')).resolves.toEqual(modules);
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'GET', path: '/api/appConfig/list' });
    expect(request!.query.get('pagePath')).toBe('pages/tabs/home/home-k');
    expect(getItem(pageConfigKey('pages/tabs/home/home-k'))).toEqual(modules);
  });

  it('shows the first pop-up once per version', async () => {
    const popUp = {
      id: 4,
      title: 'Welcome',
      content: 'Hello',
      version: 2,
      createTime: '2026-01-01T00:00:00.000Z',
    };
    server.answer('/api/popUp/list', rows([popUp]));
    await expect(loadNewPopUp()).resolves.toEqual(popUp);
    markPopUpSeen(popUp);
    await expect(loadNewPopUp()).resolves.toBeUndefined();
    server.answer('/api/popUp/list', rows([{ ...popUp, version: 3 }]));
    await expect(loadNewPopUp()).resolves.toMatchObject({ version: 3 });
    server.answer('/api/popUp/list', rows([]));
    await expect(loadNewPopUp()).resolves.toBeUndefined();
  });
});
