/**
 * The OpenAPI 3.1 reference of every call of /api and /admin-api, generated from the route table
 * (@bourse/shared contract) as the server registered it: who may call each route, its inputs, the
 * envelope of its answer with the schema of `data` or of the rows of a page, and the hint keys of
 * its refusals with their English text. Served at /api/docs with Swagger UI and as JSON at
 * /api/docs/json. docs/api.md keeps the prose: conventions, flows and evidence.
 */
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { z } from 'zod';
import { API_KEY, answerSchema, type Route } from '@bourse/shared';
import { translate } from '../lib/i18n';
import { registeredRoutes, type RegisteredRoute } from './router';

export const API_DOCS_PATH = '/api/docs';
const { version: SERVER_VERSION } = createRequire(import.meta.url)('../../package.json') as {
  version: string;
};

type JsonSchema = Record<string, unknown>;

const ENVELOPE: JsonSchema = {
  type: 'object',
  required: ['code', 'msg'],
  properties: {
    code: {
      type: 'integer',
      description:
        '200 done; 401 signed out (sign in again); 500 refused: show `text`, or translate `msg` with `params`; 209 the same request is already under way.',
    },
    msg: { type: 'string', description: 'A hint key (hint_success on success).' },
    params: { type: 'array', description: 'Values for the placeholders of `msg`.' },
    text: { type: 'string', description: "`msg` in the request's language." },
    data: { description: "The call's result (see docs/api.md)." },
    rows: { type: 'array', description: 'Paged lists: the rows of the page.' },
    total: { type: 'integer', description: 'Paged lists: rows in all pages.' },
  },
};

function envelope(description: string) {
  return { description, content: { 'application/json': { schema: ENVELOPE } } };
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'input'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

/** The successful answer of a route of the table: its envelope with `data` or `rows` typed. */
function answer(route: Route | undefined) {
  if (!route) return envelope('Done: `data` (or `rows` and `total`) holds the result.');
  if (route.file)
    return {
      description: `The ${route.contentType === 'text/event-stream' ? 'stream' : 'file'}; a refusal is an envelope.`,
      content: {
        [route.contentType ?? 'image/*']: {
          schema: route.contentType?.startsWith('text/')
            ? { type: 'string' }
            : { type: 'string', format: 'binary' },
        },
      },
    };
  return {
    description: route.rows ? 'A page: `rows` and `total`.' : 'Done: `data` holds the result.',
    content: { 'application/json': { schema: jsonSchema(answerSchema(route), 'output') } },
  };
}

/** The refusals particular to a route: its hint keys with their English text. */
function refusals(route: Route | undefined): string {
  const hints = route?.hints ?? [];
  if (hints.length === 0) return '';
  const lines = hints.map((key) => `- \`${key}\`: ${translate('en', key, ['{0}', '{1}', '{2}'])}`);
  return `\n\nRefusals of this call (\`msg\`):\n${lines.join('\n')}`;
}

function queryParameters(schema: z.ZodType | undefined) {
  if (!schema) return [];
  const json = jsonSchema(schema);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema: property,
  }));
}

function operation(route: RegisteredRoute, method: string) {
  const admin = route.url.startsWith('/admin-api/');
  const signedIn = route.auth !== 'none';
  const who = !signedIn
    ? 'Anyone.'
    : admin
      ? route.roles
        ? `Operators with the role ${route.roles.join(' or ')}.`
        : 'Any signed-in operator.'
      : route.auth === 'optional'
        ? 'Anyone; a signed-in user gets their own view.'
        : 'A signed-in user.';
  const key = route.route?.key;
  const withKey = key
    ? ` Or with an API key holding the \`${key}\` permission (signed: see the \`apiKey\` security scheme).`
    : '';
  const responses: Record<string, unknown> = {
    200: answer(route.route),
    400: envelope('Input refused: `msg` names the rule, `params` the field.'),
    422: envelope('Refused by a rule of the call: `msg` says which.'),
    429: envelope('Too many requests: try again after `retry-after` seconds.'),
  };
  if (signedIn) responses[401] = envelope('No session, or it ended: sign in again.');
  if (key && !signedIn)
    responses[401] = envelope('With an API key: the key, its headers or its signature refused.');
  if (route.roles) responses[403] = envelope("The operator's role may not make this call.");
  if (key)
    responses[403] = envelope(
      "With an API key: the client's address is not on its allow-list, or it lacks the permission.",
    );
  const body = route.body ? jsonSchema(route.body) : undefined;
  return {
    tags: [admin ? `operator: ${route.url.split('/')[2]}` : route.url.split('/')[2]],
    operationId: `${method.toLowerCase()}${route.url.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string = '') => c.toUpperCase())}`,
    ...(route.route ? { summary: route.route.summary } : {}),
    description: `Who may call it: ${who}${withKey}${refusals(route.route)}`,
    ...(route.route?.hints ? { 'x-hint-keys': route.route.hints } : {}),
    ...(key ? { 'x-api-key-permission': key } : {}),
    security: [
      ...(signedIn ? [{ bearer: [] }] : []),
      ...(key ? [{ apiKey: [], apiKeyTimestamp: [], apiKeySignature: [] }] : []),
    ],
    parameters: queryParameters(route.query),
    ...(body
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: body },
              'application/x-www-form-urlencoded': { schema: body },
            },
          },
        }
      : {}),
    responses,
  };
}

/** How a call is made with an API key (docs/api.md works an example through). */
const API_KEY_SCHEME = [
  `A call marked \`x-api-key-permission\` may be made with an API key (/api/apiKey/create) instead of a session: \`${API_KEY.headers.key}\` carries the key's public id, \`${API_KEY.headers.timestamp}\` the time in milliseconds, \`${API_KEY.headers.signature}\` the lower-case hex HMAC-SHA256 with the key's secret of \`timestamp + METHOD + path + ('?' + query) + body\` (the raw bytes as sent; a GET has no body), and the optional \`${API_KEY.headers.recvWindow}\` how far in milliseconds the timestamp may be from the server's time (default ${API_KEY.recvWindowDefaultMs}, at most ${API_KEY.recvWindowMaxMs}).`,
  'Each signature is accepted once. The key acts as its user in the book it was created in (live or demo), from the addresses of its allow-list, with its permissions (read, trade); withdrawals, transfers and security calls never take a key.',
].join(' ');

/** The OpenAPI document of `routes`. */
export function openApiDocument(routes: readonly RegisteredRoute[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const entry = (paths[route.url] ??= {});
    for (const method of route.methods) entry[method.toLowerCase()] = operation(route, method);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Bourse API',
      version,
      description:
        'Every call of the app (/api) and of the operator console (/admin-api). Conventions, flows and evidence: docs/api.md.',
    },
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'The token of /api/userInfo/login (users) or /admin-api/auth/login (operators).',
        },
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: API_KEY.headers.key,
          description: API_KEY_SCHEME,
        },
        apiKeyTimestamp: {
          type: 'apiKey',
          in: 'header',
          name: API_KEY.headers.timestamp,
          description: 'The time of the request in milliseconds since 1970 (UTC).',
        },
        apiKeySignature: {
          type: 'apiKey',
          in: 'header',
          name: API_KEY.headers.signature,
          description:
            "Lower-case hex HMAC-SHA256, with the key's secret, of timestamp + METHOD + path + ('?' + query, when there is one) + body, exactly as sent.",
        },
      },
    },
    paths,
  };
}

/** Serves the reference of the routes registered so far; call it after the last route. */
export async function registerApiDocs(app: FastifyInstance): Promise<void> {
  const document = openApiDocument(registeredRoutes(app), SERVER_VERSION);
  await app.register(swagger, {
    mode: 'static',
    specification: { document: document as never },
  });
  await app.register(swaggerUi, { routePrefix: API_DOCS_PATH });
}
