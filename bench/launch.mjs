// Target: an unauthenticated launch call (siteInfo/getSiteInfo) at >= 60% of a bare Fastify
// hello-world's requests per second, both measured in the same run on the same machine: both
// servers run side by side and are measured in alternating rounds (median of each).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { cannon, root, startServer, summary, waitForHttp } from './lib.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

function median(results) {
  return [...results].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[
    Math.floor(results.length / 2)
  ];
}

export async function benchLaunch() {
  const hello = spawn(process.execPath, [path.join(root, 'bench/hello.mjs')], {
    env: { ...process.env, PORT: '3999' },
    stdio: 'inherit',
  });
  const server = await startServer({ port: 4001 });
  try {
    await waitForHttp('http://127.0.0.1:3999/');
    const helloUrl = 'http://127.0.0.1:3999/';
    const launchUrl = `${server.url}/api/siteInfo/getSiteInfo`;
    const headers = { languageid: '2' };
    await cannon({ url: helloUrl, duration: 5 });
    await cannon({ url: launchUrl, headers, duration: 5 });
    const baselines = [];
    const launches = [];
    for (let round = 0; round < ROUNDS; round++) {
      baselines.push(summary(await cannon({ url: helloUrl })));
      launches.push(summary(await cannon({ url: launchUrl, headers })));
    }
    const baseline = median(baselines);
    const launch = median(launches);
    const ratio = launch.requestsPerSecond / baseline.requestsPerSecond;
    return {
      name: `launch call vs hello world, 50 connections, ${ROUNDS} alternating rounds of 10 s`,
      baseline,
      launch,
      baselineRounds: baselines.map((r) => r.requestsPerSecond),
      launchRounds: launches.map((r) => r.requestsPerSecond),
      ratio: Number(ratio.toFixed(3)),
      target: '>= 0.60',
      pass: ratio >= 0.6 && launches.every((r) => r.non2xx === 0),
    };
  } finally {
    hello.kill('SIGTERM');
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(JSON.stringify(await benchLaunch(), null, 2));
