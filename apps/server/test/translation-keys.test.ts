/**
 * Every message key the server can send, and every field it can name, has an English text (and
 * so, by the locale test of packages/shared, a text in all 19 languages).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import * as shared from '@bourse/shared';

const here = path.dirname(fileURLToPath(import.meta.url));
const english = JSON.parse(
  readFileSync(path.join(here, '../../../packages/shared/locales/en.json'), 'utf8'),
) as Record<string, string>;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.(ts|sql)$/.test(name) && !name.endsWith('.test.ts') ? [full] : [];
  });
}

it('has an English text for every hint_ and pwd_ key in the server and shared code', () => {
  const files = [
    ...sources(path.join(here, '../src')),
    ...sources(path.join(here, '../../../packages/shared/src')),
  ];
  const keys = new Set<string>();
  for (const file of files) {
    for (const match of readFileSync(file, 'utf8').matchAll(
      /['`](hint_[A-Za-z0-9]+|pwd_[A-Za-z]+)['`]/g,
    ))
      keys.add(match[1]!);
  }
  // Keys built from a problem name at run time.
  for (const problem of ['format', 'scale', 'range', 'sign']) keys.add(`hint_amount_${problem}`);
  expect(keys.size).toBeGreaterThan(40);
  expect([...keys].filter((key) => !(key in english)).sort()).toEqual([]);
});

it('has a label for every field a request schema can name', () => {
  // The inputs of every call of the route table (answers name no field to the user).
  const fields = new Set<string>();
  const collect = (schema: unknown) => {
    const shape = (schema as { shape?: Record<string, unknown> } | null)?.shape;
    if (shape && typeof shape === 'object')
      for (const field of Object.keys(shape)) fields.add(field);
    const inner = (schema as { def?: { in?: unknown } } | null)?.def?.in;
    if (inner) collect(inner);
  };
  for (const route of shared.allRoutes()) {
    collect(route.query);
    collect(route.body);
  }
  expect(fields.size).toBeGreaterThan(40);
  expect([...fields].filter((field) => !(`field_${field}` in english)).sort()).toEqual([]);
});
