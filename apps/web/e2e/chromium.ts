// Debian's Chromium and the flags every headless run here uses (browser tests, Lighthouse):
// no sandbox inside the container, no GPU, and nothing that reaches the network on its own.
export const CHROMIUM_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
