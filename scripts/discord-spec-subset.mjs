// The part of Discord's published OpenAPI description (github.com/discord/discord-api-spec, MIT) that the
// bodies HostOps sends are checked against in the tests (test/support/discordSpec.ts): the JSON request
// bodies of the endpoints HostOps posts messages and modals to, and every schema they refer to, unchanged.
// The whole description is 1.2 MB; the subset keeps what the check reads and names where it came from.
//
// Usage: node scripts/discord-spec-subset.mjs <openapi.json> <commit> <commit date> > test/fixtures/discord-api-spec/subset.json
// (the description at that commit of discord/discord-api-spec, specs/openapi.json)
import { readFileSync } from 'node:fs';

/** Method and path template of every request whose body HostOps makes: interaction answers, messages. */
export const OPERATIONS = [
  ['post', '/interactions/{interaction_id}/{interaction_token}/callback'],
  ['post', '/webhooks/{webhook_id}/{webhook_token}'],
  ['patch', '/webhooks/{webhook_id}/{webhook_token}/messages/@original'],
  ['patch', '/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}'],
  ['post', '/channels/{channel_id}/messages'],
  ['patch', '/channels/{channel_id}/messages/{message_id}'],
];

const [file, commit, date] = process.argv.slice(2);
if (!file || !commit || !date) {
  console.error('usage: node scripts/discord-spec-subset.mjs <openapi.json> <commit> <commit date>');
  process.exit(2);
}
const spec = JSON.parse(readFileSync(file, 'utf8'));
const schemas = spec.components.schemas;
const kept = {};
const visit = (node) => {
  if (Array.isArray(node)) return node.forEach(visit);
  if (node === null || typeof node !== 'object') return;
  const ref = node.$ref;
  if (typeof ref === 'string') {
    const name = ref.replace('#/components/schemas/', '');
    if (!(name in schemas)) throw new Error(`unresolved ${ref}`);
    if (!(name in kept)) {
      kept[name] = schemas[name];
      visit(schemas[name]);
    }
  }
  for (const value of Object.values(node)) visit(value);
};
const operations = {};
for (const [method, path] of OPERATIONS) {
  const schema = spec.paths[path]?.[method]?.requestBody?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`no JSON body for ${method.toUpperCase()} ${path}`);
  operations[`${method.toUpperCase()} ${path}`] = schema;
  visit(schema);
}
const sorted = Object.fromEntries(
  Object.keys(kept)
    .sort()
    .map((name) => [name, kept[name]]),
);
process.stdout.write(
  `${JSON.stringify({
    source: {
      repository: 'https://github.com/discord/discord-api-spec',
      file: 'specs/openapi.json',
      commit,
      date,
      license: 'MIT',
      openapi: spec.openapi,
      apiVersion: spec.info.version,
    },
    operations,
    components: { schemas: sorted },
  })}\n`,
);
