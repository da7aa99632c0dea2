/**
 * A local stand-in for Binance's public market-data API, on 127.0.0.1 and a random port, for the
 * feed tests (there is no internet in the test environment). It speaks the documented protocol:
 *
 * - WebSocket `/stream` (combined streams): SUBSCRIBE / UNSUBSCRIBE / LIST_SUBSCRIPTIONS method
 *   messages answered `{"result":…,"id":N}` or `{"error":{"code","msg"},"id":N}`; payloads sent as
 *   `{"stream":"btcusdt@aggTrade","data":{…}}`; stream names must be lower-case; at most 1024
 *   streams per connection; more than 5 incoming messages in a second closes the connection
 *   (as Binance does), so a client that does not pace itself fails its tests.
 * - REST `GET /api/v3/ticker/price` (`symbol` or `symbols=["A","B"]`) and `GET /api/v3/klines`
 *   (`symbol`, `interval`, `startTime`, `endTime`, `limit` ≤ 1000), with Binance's error bodies.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export interface TradeInput {
  /** Aggregate trade id (`a`). */
  id: number;
  price: string;
  qty: string;
  /** Trade time, ms since the epoch (`T`). */
  time: number;
}

export interface KlineInput {
  openTime: number;
  /** Defaults to openTime + 59 999. */
  closeTime?: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
  quoteVolume: string;
  trades?: number;
}

export interface BinanceProtocolServer {
  /** Base for the feed's `wsUrl` (`ws://127.0.0.1:port`). */
  readonly wsUrl: string;
  /** Base for the feed's `restUrl` (`http://127.0.0.1:port`). */
  readonly restUrl: string;
  /** Sends an aggTrade to every connection subscribed to it; returns how many got it. */
  publishTrade(symbol: string, trade: TradeInput): number;
  /** Sends a kline (`x` = `closed`) to every connection subscribed to it. */
  publishKline(symbol: string, interval: string, kline: KlineInput & { closed: boolean }): number;
  /** Sends any text as is to every open connection (malformed or oversized messages). */
  publishRaw(text: string): number;
  /** Cuts every open connection without a closing handshake, as a network failure would. */
  dropConnections(): void;
  /** Streams the most recent connection is subscribed to, in subscription order. */
  subscriptions(): string[];
  /** Connections accepted since the server started (reconnects add one each). */
  connectionCount(): number;
  /** Connections open now. */
  openConnections(): number;
  /** Connections closed by the server for going over 5 messages per second. */
  rateLimitDisconnects(): number;
  /** Pongs received in answer to the server's pings. */
  pongCount(): number;
  /** Every method message received, in order. */
  methodMessages(): unknown[];
  /** Every REST request received (path and query). */
  restRequests(): string[];
  setTickerPrices(prices: Record<string, string>): void;
  setKlines(symbol: string, interval: string, rows: KlineInput[]): void;
  close(): Promise<void>;
}

export interface BinanceProtocolServerOptions {
  /** Ping every connection this often (Binance: 20 s); off by default. */
  pingIntervalMs?: number;
}

const INTERVALS = [
  '1s',
  '1m',
  '3m',
  '5m',
  '15m',
  '30m',
  '1h',
  '2h',
  '4h',
  '6h',
  '8h',
  '12h',
  '1d',
  '3d',
  '1w',
  '1M',
];
const STREAM_PATTERN = new RegExp(
  `^[a-z0-9]+@(?:aggTrade|trade|ticker|miniTicker|bookTicker|kline_(?:${INTERVALS.join('|')}))$`,
);
const MAX_STREAMS = 1024;
const MAX_MESSAGES_PER_SECOND = 5;

interface Connection {
  socket: WebSocket;
  streams: string[];
  /** Arrival times of the last incoming messages, for the 5-per-second limit. */
  arrivals: number[];
}

export async function startBinanceProtocolServer(
  options: BinanceProtocolServerOptions = {},
): Promise<BinanceProtocolServer> {
  const connections = new Set<Connection>();
  let latest: Connection | undefined;
  let accepted = 0;
  let rateLimited = 0;
  let pongs = 0;
  const methods: unknown[] = [];
  const requests: string[] = [];
  const tickerPrices = new Map<string, string>();
  const klines = new Map<string, KlineInput[]>();

  const http = createServer((request, response) => handleRest(request, response));
  const wss = new WebSocketServer({ noServer: true });

  http.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== '/stream') {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      const connection: Connection = { socket: ws, streams: [], arrivals: [] };
      // `/stream?streams=a/b` subscribes at connection time, as on Binance.
      for (const name of url.searchParams.get('streams')?.split('/') ?? [])
        if (STREAM_PATTERN.test(name)) connection.streams.push(name);
      accepted += 1;
      connections.add(connection);
      latest = connection;
      ws.on('message', (data, isBinary) => onClientMessage(connection, data.toString(), isBinary));
      ws.on('pong', () => (pongs += 1));
      ws.on('close', () => connections.delete(connection));
      ws.on('error', () => undefined);
    });
  });

  const pinger =
    options.pingIntervalMs === undefined
      ? undefined
      : setInterval(() => {
          for (const { socket } of connections) socket.ping();
        }, options.pingIntervalMs);

  function reply(connection: Connection, body: unknown): void {
    connection.socket.send(JSON.stringify(body));
  }

  function refuse(connection: Connection, id: unknown, code: number, msg: string): void {
    reply(connection, { error: { code, msg }, id: id ?? null });
  }

  function onClientMessage(connection: Connection, text: string, isBinary: boolean): void {
    const now = Date.now();
    connection.arrivals = connection.arrivals.filter((time) => now - time < 1000);
    connection.arrivals.push(now);
    if (connection.arrivals.length > MAX_MESSAGES_PER_SECOND) {
      rateLimited += 1;
      connection.socket.close(1008, 'Too many requests');
      return;
    }
    if (isBinary) return refuse(connection, null, 3, 'Invalid JSON: binary frame');
    let message: any;
    try {
      message = JSON.parse(text);
    } catch {
      return refuse(connection, null, 3, 'Invalid JSON: expected value at line 1 column 1');
    }
    methods.push(message);
    if (typeof message !== 'object' || message === null || Array.isArray(message))
      return refuse(connection, null, 2, 'Invalid request: request must be an object');
    const { method, params, id } = message;
    if (!(id === null || typeof id === 'string' || Number.isInteger(id)))
      return refuse(connection, null, 2, 'Invalid request: request ID must be an unsigned integer');
    switch (method) {
      case 'SUBSCRIBE':
      case 'UNSUBSCRIBE': {
        if (!Array.isArray(params) || params.some((name) => typeof name !== 'string'))
          return refuse(connection, id, 2, 'Invalid request: params must be an array of strings');
        const bad = params.find((name: string) => !STREAM_PATTERN.test(name));
        if (bad !== undefined)
          return refuse(connection, id, 2, `Invalid request: invalid stream name ${bad}`);
        if (method === 'SUBSCRIBE') {
          const added = (params as string[]).filter((name) => !connection.streams.includes(name));
          if (connection.streams.length + added.length > MAX_STREAMS)
            return refuse(connection, id, 2, 'Invalid request: too many streams');
          connection.streams.push(...new Set(added));
        } else {
          connection.streams = connection.streams.filter((name) => !params.includes(name));
        }
        return reply(connection, { result: null, id });
      }
      case 'LIST_SUBSCRIPTIONS':
        return reply(connection, { result: [...connection.streams], id });
      default:
        return refuse(connection, id, 2, `Invalid request: unknown method ${String(method)}`);
    }
  }

  function broadcast(stream: string, data: unknown): number {
    const text = JSON.stringify({ stream, data });
    let sent = 0;
    for (const connection of connections) {
      if (connection.socket.readyState !== connection.socket.OPEN) continue;
      if (!connection.streams.includes(stream)) continue;
      connection.socket.send(text);
      sent += 1;
    }
    return sent;
  }

  function klineRow(row: KlineInput): unknown[] {
    return [
      row.openTime,
      row.open,
      row.high,
      row.low,
      row.close,
      row.volume,
      row.closeTime ?? row.openTime + 59_999,
      row.quoteVolume,
      row.trades ?? 0,
      '0',
      '0',
      '0',
    ];
  }

  function send(response: ServerResponse, status: number, body: unknown): void {
    response.writeHead(status, { 'content-type': 'application/json;charset=UTF-8' });
    response.end(JSON.stringify(body));
  }

  function handleRest(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', 'http://localhost');
    requests.push(`${url.pathname}${url.search}`);
    if (request.method !== 'GET') return send(response, 405, { code: -1000, msg: 'GET only.' });
    const query = url.searchParams;
    if (url.pathname === '/api/v3/ticker/price') {
      const single = query.get('symbol');
      const many = query.get('symbols');
      if (single !== null) {
        const price = tickerPrices.get(single);
        if (price === undefined)
          return send(response, 400, { code: -1121, msg: 'Invalid symbol.' });
        return send(response, 200, { symbol: single, price });
      }
      if (many !== null) {
        let symbols: unknown;
        try {
          symbols = JSON.parse(many);
        } catch {
          symbols = undefined;
        }
        if (!Array.isArray(symbols) || symbols.some((symbol) => typeof symbol !== 'string'))
          return send(response, 400, {
            code: -1100,
            msg: "Illegal characters found in parameter 'symbols'.",
          });
        if (symbols.some((symbol: string) => !tickerPrices.has(symbol)))
          return send(response, 400, { code: -1121, msg: 'Invalid symbol.' });
        return send(
          response,
          200,
          symbols.map((symbol: string) => ({ symbol, price: tickerPrices.get(symbol) })),
        );
      }
      return send(
        response,
        200,
        [...tickerPrices].map(([symbol, price]) => ({ symbol, price })),
      );
    }
    if (url.pathname === '/api/v3/klines') {
      const symbol = query.get('symbol');
      const interval = query.get('interval');
      if (!symbol)
        return send(response, 400, {
          code: -1102,
          msg: "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed.",
        });
      if (!interval || !INTERVALS.includes(interval))
        return send(response, 400, { code: -1120, msg: 'Invalid interval.' });
      const limit = Number(query.get('limit') ?? '500');
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
        return send(response, 400, {
          code: -1130,
          msg: "Data sent for parameter 'limit' is not valid.",
        });
      const rows = klines.get(`${symbol}|${interval}`);
      if (!rows) return send(response, 400, { code: -1121, msg: 'Invalid symbol.' });
      const start = query.has('startTime') ? Number(query.get('startTime')) : undefined;
      const end = query.has('endTime') ? Number(query.get('endTime')) : undefined;
      const inRange = rows.filter(
        (row) =>
          (start === undefined || row.openTime >= start) &&
          (end === undefined || row.openTime <= end),
      );
      // From startTime: the oldest rows; without it: the most recent ones.
      const picked = start === undefined ? inRange.slice(-limit) : inRange.slice(0, limit);
      return send(response, 200, picked.map(klineRow));
    }
    send(response, 404, { code: -1000, msg: 'Not found.' });
  }

  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;

  return {
    wsUrl: `ws://127.0.0.1:${port}`,
    restUrl: `http://127.0.0.1:${port}`,
    publishTrade(symbol, trade) {
      const upper = symbol.toUpperCase();
      return broadcast(`${symbol.toLowerCase()}@aggTrade`, {
        e: 'aggTrade',
        E: Date.now(),
        s: upper,
        a: trade.id,
        p: trade.price,
        q: trade.qty,
        f: trade.id * 2,
        l: trade.id * 2 + 1,
        T: trade.time,
        m: false,
        M: true,
      });
    },
    publishKline(symbol, interval, kline) {
      const upper = symbol.toUpperCase();
      return broadcast(`${symbol.toLowerCase()}@kline_${interval}`, {
        e: 'kline',
        E: Date.now(),
        s: upper,
        k: {
          t: kline.openTime,
          T: kline.closeTime ?? kline.openTime + 59_999,
          s: upper,
          i: interval,
          f: 100,
          L: 100 + (kline.trades ?? 0),
          o: kline.open,
          c: kline.close,
          h: kline.high,
          l: kline.low,
          v: kline.volume,
          n: kline.trades ?? 0,
          x: kline.closed,
          q: kline.quoteVolume,
          V: '0',
          Q: '0',
          B: '0',
        },
      });
    },
    publishRaw(text) {
      let sent = 0;
      for (const { socket } of connections) {
        if (socket.readyState !== socket.OPEN) continue;
        socket.send(text);
        sent += 1;
      }
      return sent;
    },
    dropConnections() {
      for (const { socket } of connections) socket.terminate();
    },
    subscriptions: () => [...(latest?.streams ?? [])],
    connectionCount: () => accepted,
    openConnections: () => connections.size,
    rateLimitDisconnects: () => rateLimited,
    pongCount: () => pongs,
    methodMessages: () => [...methods],
    restRequests: () => [...requests],
    setTickerPrices(prices) {
      tickerPrices.clear();
      for (const [symbol, price] of Object.entries(prices)) tickerPrices.set(symbol, price);
    },
    setKlines(symbol, interval, rows) {
      klines.set(
        `${symbol}|${interval}`,
        [...rows].sort((a, b) => a.openTime - b.openTime),
      );
    },
    async close() {
      if (pinger) clearInterval(pinger);
      for (const { socket } of connections) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
