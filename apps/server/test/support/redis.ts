/**
 * The Redis the several-instance tests share ticks, user events and ended sessions through:
 * REDIS_TEST_URL (default redis://127.0.0.1:6379). With REQUIRE_REDIS=1 (CI) it counts as there,
 * so an unreachable Redis fails those tests instead of skipping them.
 */
import net from 'node:net';

export const REDIS_URL = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';

function redisAnswers(): Promise<boolean> {
  const { hostname, port } = new URL(REDIS_URL);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379) });
    socket.setTimeout(1000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

/** Whether the tests that need Redis run; says which are skipped when they do not. */
export async function redisAvailable(skipped: string): Promise<boolean> {
  const available = process.env.REQUIRE_REDIS === '1' || (await redisAnswers());
  if (!available) console.warn(`Redis at ${REDIS_URL} is not reachable: ${skipped} skipped.`);
  return available;
}
