/**
 * The browser tests' server (tools/e2e-server.ts): the real server with a fresh embedded database
 * on a free port, the web app built if stale. Tests read its address with `inject('baseUrl')`.
 * The first operator (`admin`) is made ready here once, as its first sign-in in the console would
 * (tools/e2e-admin.ts): its own password, then two-factor (required for admins); files get its
 * session (`inject('adminToken')`) for operator steps through /admin-api, and none ends it.
 * Teardown stops the server and deletes the data.
 */
import type { TestProject } from 'vitest/node';
import { readyAdmin } from '../../../tools/e2e-admin';
import { startE2eServer } from '../../../tools/e2e-server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** A session of the first operator (`admin`: password chosen, two-factor on). */
    adminToken: string;
  }
}

export default async function setup({ provide }: TestProject): Promise<() => Promise<void>> {
  const server = await startE2eServer({ app: 'web', dataDirPrefix: 'bourse-e2e-' });
  try {
    provide('adminToken', await readyAdmin(server.baseUrl, server.firstAdminPassword));
  } catch (error) {
    await server.stop();
    throw error;
  }
  provide('baseUrl', server.baseUrl);
  return server.stop;
}
