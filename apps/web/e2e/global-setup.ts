/**
 * The browser tests' server (tools/e2e-server.ts): the real server with a fresh embedded database
 * on a free port, the web app built if stale. Tests read its address with `inject('baseUrl')`.
 * Teardown stops it and deletes the data.
 */
import type { TestProject } from 'vitest/node';
import { startE2eServer } from '../../../tools/e2e-server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** The first operator's password (user `admin`), for operator steps through /admin-api. */
    adminPassword: string;
  }
}

export default async function setup({ provide }: TestProject): Promise<() => Promise<void>> {
  const server = await startE2eServer({ app: 'web', dataDirPrefix: 'bourse-e2e-' });
  provide('baseUrl', server.baseUrl);
  provide('adminPassword', server.firstAdminPassword);
  return server.stop;
}
