/**
 * The test server as the app's chosen API line, for tests of the app's own calls: started once for
 * the file, chosen (line 1) and its requests cleared before each test, closed after the file.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { setItem, STORAGE_KEY } from '../lib/storage';
import { startTestServer, type Answer, type TestServer } from './http-server';

export function serveAsApiLine(): TestServer {
  let started: TestServer | undefined;
  const server = () => {
    if (!started) throw new Error('the test server is not started yet');
    return started;
  };
  beforeAll(async () => {
    started = await startTestServer();
  });
  afterAll(() => started?.close());
  beforeEach(() => {
    server().requests.length = 0;
    setItem(STORAGE_KEY.apiLines, [{ name: 'Test', url: server().url }]);
    setItem(STORAGE_KEY.lineIndex, 1);
  });
  return {
    get url() {
      return server().url;
    },
    get requests() {
      return server().requests;
    },
    answer: (path, answer) => server().answer(path, answer),
    close: () => server().close(),
  };
}

/** A page of rows, as a paged call answers it. */
export function rowsAnswer(list: unknown[]): Answer {
  return { body: { code: 200, msg: 'hint_success', rows: list, total: list.length } };
}
