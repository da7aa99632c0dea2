/** Reading a server-sent event stream (the console's review events) in tests, over real HTTP. */

export interface StreamEvent {
  event: string;
  data: any;
}

export interface EventStreamReader {
  status: number;
  /** Every event read so far, in order. */
  events: StreamEvent[];
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Opens `url` with the operator's token and collects its events as they arrive. */
export async function openEventStream(url: string, token: string): Promise<EventStreamReader> {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' },
    signal: controller.signal,
  });
  const events: StreamEvent[] = [];
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    return { status: response.status, events, ended: Promise.resolve(), close: () => undefined };
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const ended = (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields = new Map<string, string>();
          for (const line of block.split('\n')) {
            const colon = line.indexOf(':');
            if (colon <= 0) continue;
            fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart());
          }
          if (fields.has('event'))
            events.push({ event: fields.get('event')!, data: JSON.parse(fields.get('data')!) });
        }
      }
    } catch {
      // Aborted by the test.
    }
  })();
  return { status: response.status, events, ended, close: () => controller.abort() };
}
