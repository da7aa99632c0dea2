/**
 * A small real HTTP server for the web app's logic tests: each test says how a path answers
 * (an envelope with a status, a delay, a non-JSON body, or a dropped connection), and the code
 * under test talks to it with the real fetch.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Answer {
  status?: number;
  body?: unknown;
  /** Raw text sent as text/html instead of JSON. */
  html?: string;
  /** A file: bytes with their content type. */
  file?: { type: string; data: Buffer };
  delayMs?: number;
  /** Destroy the socket without answering. */
  drop?: boolean;
}

export interface TestServer {
  url: string;
  answer(path: string, answer: Answer | ((request: Received) => Answer)): void;
  requests: Received[];
  close(): Promise<void>;
}

export interface Received {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export async function startTestServer(): Promise<TestServer> {
  const answers = new Map<string, Answer | ((request: Received) => Answer)>();
  const requests: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const received: Received = {
        method: request.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(received);
      const configured = answers.get(url.pathname);
      const answer: Answer =
        typeof configured === 'function'
          ? configured(received)
          : (configured ?? { status: 404, body: { code: 500, msg: 'hint_notFound' } });
      const send = () => {
        if (answer.drop) {
          request.socket.destroy();
          return;
        }
        if (answer.file) {
          response.writeHead(answer.status ?? 200, { 'content-type': answer.file.type });
          response.end(answer.file.data);
          return;
        }
        if (answer.html !== undefined) {
          response.writeHead(answer.status ?? 502, { 'content-type': 'text/html' });
          response.end(answer.html);
          return;
        }
        response.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(answer.body));
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    answer: (path, answer) => void answers.set(path, answer),
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
