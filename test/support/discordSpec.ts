// Bodies checked against Discord's own published description of its API: the subset of
// discord/discord-api-spec's specs/openapi.json (MIT) in test/fixtures/discord-api-spec/subset.json, made by
// scripts/discord-spec-subset.mjs and naming the commit it was taken from. Ajv reads the OpenAPI 3.1 schemas
// as JSON Schema 2020-12; Discord's own keywords (`x-discord-union`) and formats (`int32`, `snowflake`)
// are not JSON Schema's and are ignored.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';

const FIXTURE = join(import.meta.dirname, '../fixtures/discord-api-spec/subset.json');

interface Subset {
  source: { commit: string; date: string; file: string; repository: string };
  operations: Record<string, unknown>;
  components: { schemas: Record<string, unknown> };
}

let loaded: { subset: Subset; validators: Map<string, ValidateFunction> } | undefined;

/** Reads and compiles the description once per process (about a second: before the requests it checks). */
export function loadDiscordSpec() {
  if (loaded) return loaded;
  const subset = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Subset;
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
  ajv.addSchema({ $id: 'discord', components: subset.components }, 'discord');
  const validators = new Map<string, ValidateFunction>();
  for (const [operation, schema] of Object.entries(subset.operations)) {
    // The body's schema refers to `#/components/…` of the whole description: resolved in the document above.
    const rebased = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"discord#/components/'));
    validators.set(operation, ajv.compile(rebased));
  }
  loaded = { subset, validators };
  return loaded;
}

/** Which version of Discord's description the bodies are checked against. */
export function discordSpecSource(): Subset['source'] {
  return loadDiscordSpec().subset.source;
}

const TEMPLATES: [RegExp, string][] = [
  [/^\/interactions\/[^/]+\/[^/]+\/callback$/, '/interactions/{interaction_id}/{interaction_token}/callback'],
  [/^\/webhooks\/[^/]+\/[^/]+$/, '/webhooks/{webhook_id}/{webhook_token}'],
  [
    /^\/webhooks\/[^/]+\/[^/]+\/messages\/@original$/,
    '/webhooks/{webhook_id}/{webhook_token}/messages/@original',
  ],
  [
    /^\/webhooks\/[^/]+\/[^/]+\/messages\/[^/@]+$/,
    '/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}',
  ],
  [/^\/channels\/[^/]+\/messages$/, '/channels/{channel_id}/messages'],
  [/^\/channels\/[^/]+\/messages\/[^/]+$/, '/channels/{channel_id}/messages/{message_id}'],
];

/** The operation (`POST /channels/{channel_id}/messages`) a request is, if its body is one the subset describes. */
export function specOperation(method: string, path: string): string | undefined {
  const template = TEMPLATES.find(([pattern]) => pattern.test(path))?.[1];
  const operation = template && `${method.toUpperCase()} ${template}`;
  return operation && loadDiscordSpec().validators.has(operation) ? operation : undefined;
}

/**
 * Where the body breaks Discord's description of the request (`/data/components/0/type: must be equal to
 * one of the allowed values`), or an empty list when it holds; undefined when the request is not one it covers.
 */
export function specErrors(method: string, path: string, body: unknown): string[] | undefined {
  const operation = specOperation(method, path);
  if (!operation) return undefined;
  const validate = loadDiscordSpec().validators.get(operation) as ValidateFunction;
  if (validate(body)) return [];
  return (validate.errors ?? []).map(
    (error: ErrorObject) => `${error.instancePath || '/'}: ${error.message ?? error.keyword}`,
  );
}
