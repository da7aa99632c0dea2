/**
 * The web app's files carry the same headers whatever encoding the browser asks for: real
 * browsers send `Accept-Encoding: gzip, deflate, br` and get the precompressed copies the build
 * writes, which once went out without the Content-Security-Policy and cached for an hour. The
 * operator console is served the same way at /admin/, beside the app.
 */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECURITY_HEADERS } from '../src/http/security-headers';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;
let webDir: string;
let adminDir: string;

const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/app-1.js"></script></head><body></body></html>';
const CONSOLE_INDEX =
  '<!doctype html><html><head><title>Console</title><script type="module" src="/admin/assets/console-1.js"></script></head><body></body></html>';

function writeWithCopies(file: string, content: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  writeFileSync(`${file}.br`, brotliCompressSync(content));
  writeFileSync(`${file}.gz`, gzipSync(content));
}

beforeAll(async () => {
  webDir = mkdtempSync(path.join(tmpdir(), 'bourse-web-'));
  writeWithCopies(path.join(webDir, 'index.html'), INDEX);
  writeWithCopies(path.join(webDir, 'assets', 'app-1.js'), 'console.log("app");'.repeat(50));
  writeWithCopies(path.join(webDir, 'manifest.webmanifest'), '{"name":"Bourse"}');
  adminDir = mkdtempSync(path.join(tmpdir(), 'bourse-admin-'));
  writeWithCopies(path.join(adminDir, 'index.html'), CONSOLE_INDEX);
  writeWithCopies(path.join(adminDir, 'assets', 'console-1.js'), 'console.log("ops");'.repeat(50));
  writeWithCopies(path.join(adminDir, '.vite', 'manifest.json'), '{"index.html":{}}');
  t = await createTestApp({
    env: {
      WEB_DIR: webDir,
      ADMIN_DIR: adminDir,
      API_LINES: 'Backup|https://backup.example.com',
    },
  });
});

afterAll(async () => {
  await t.close();
  rmSync(webDir, { recursive: true, force: true });
  rmSync(adminDir, { recursive: true, force: true });
});

const ENCODINGS = ['identity', 'gzip', 'br', 'gzip, deflate, br, zstd'];

async function get(url: string, encoding: string) {
  return t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': encoding } });
}

describe('the page', () => {
  for (const encoding of ENCODINGS) {
    for (const url of ['/', '/index.html']) {
      it(`serves ${url} with its policy and never stored, for Accept-Encoding: ${encoding}`, async () => {
        const response = await get(url, encoding);
        expect(response.statusCode).toBe(200);
        const policy = response.headers['content-security-policy'];
        expect(policy).toContain("script-src 'self'");
        expect(policy).toContain("object-src 'none'");
        expect(policy).toContain("connect-src 'self' https://backup.example.com");
        expect(response.headers['cache-control']).toBe('no-store');
        expect(response.headers['content-type']).toMatch(/^text\/html/);
        for (const [name, value] of Object.entries(SECURITY_HEADERS))
          expect(response.headers[name]).toBe(value);
        const expected =
          encoding === 'identity' ? undefined : encoding.includes('br') ? 'br' : 'gzip';
        expect(response.headers['content-encoding']).toBe(expected);
      });
    }
  }
});

describe('other files', () => {
  for (const encoding of ENCODINGS) {
    it(`caches hashed assets for a year and others for an hour, for ${encoding}`, async () => {
      const asset = await get('/assets/app-1.js', encoding);
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const manifest = await get('/manifest.webmanifest', encoding);
      expect(manifest.statusCode).toBe(200);
      expect(manifest.headers['cache-control']).toBe('public, max-age=3600');
      for (const response of [asset, manifest]) {
        expect(response.headers['content-security-policy']).toBeUndefined();
        for (const [name, value] of Object.entries(SECURITY_HEADERS))
          expect(response.headers[name]).toBe(value);
      }
    });
  }
});

describe('the operator console at /admin/', () => {
  for (const encoding of ENCODINGS) {
    it(`serves its page with its policy and never stored, for Accept-Encoding: ${encoding}`, async () => {
      for (const url of ['/admin', '/admin/', '/admin/index.html']) {
        const response = await get(url, encoding);
        expect(response.statusCode, url).toBe(200);
        expect(response.headers['cache-control']).toBe('no-store');
        const policy = response.headers['content-security-policy'];
        expect(policy).toContain("script-src 'self'");
        expect(policy).toContain("img-src 'self' data: blob:");
        // The console calls this server only.
        expect(policy).not.toContain('backup.example.com');
        for (const [name, value] of Object.entries(SECURITY_HEADERS))
          expect(response.headers[name]).toBe(value);
      }
      const asset = await get('/admin/assets/console-1.js', encoding);
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    });
  }

  it('answers /admin with the console and keeps the app at /', async () => {
    for (const url of ['/admin', '/admin/']) {
      const response = await get(url, 'identity');
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toBe(CONSOLE_INDEX);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
    }
    const page = await get('/', 'identity');
    expect(page.body).toBe(INDEX);
  });

  it('keeps the build manifest private and answers unknown files with 404', async () => {
    expect((await get('/admin/.vite/manifest.json', 'identity')).statusCode).toBe(404);
    expect((await get('/admin/assets/missing.js', 'identity')).statusCode).toBe(404);
  });
});
