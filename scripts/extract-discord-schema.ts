/**
 * Extracts the request-body schemas of the Discord routes this bot calls from Discord's published
 * OpenAPI 3.1 description (`../shared/discord-openapi.json`) into a self-contained JSON Schema
 * 2020-12 document at `fakes/discord/schema/discord-requests.json`, plus the MIT license note.
 *
 * Tests read only the extracted copy: a user's clone has no `../shared` folder.
 *
 * Run: `npx tsx scripts/extract-discord-schema.ts [path/to/openapi.json]`
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** A route whose request body we extract; `path` is the template exactly as the OpenAPI file spells it. */
interface RouteSpec {
  readonly method: 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  readonly path: string;
}

// The spec names the first webhook segment `webhook_id`; for interaction webhooks it holds the application id.
const ROUTES: readonly RouteSpec[] = [
  { method: 'POST', path: '/channels/{channel_id}/messages' },
  { method: 'PATCH', path: '/channels/{channel_id}/messages/{message_id}' },
  // Session threads (/feed threads): a thread started from a session's card.
  { method: 'POST', path: '/channels/{channel_id}/messages/{message_id}/threads' },
  { method: 'POST', path: '/interactions/{interaction_id}/{interaction_token}/callback' },
  { method: 'PATCH', path: '/webhooks/{webhook_id}/{webhook_token}/messages/@original' },
  { method: 'POST', path: '/webhooks/{webhook_id}/{webhook_token}' },
  { method: 'PUT', path: '/applications/{application_id}/commands' },
  { method: 'PUT', path: '/applications/{application_id}/guilds/{guild_id}/commands' },
  // The on-duty role (/duty role): these take no body, which is what their schema says (see `body: false`).
  { method: 'PUT', path: '/guilds/{guild_id}/members/{user_id}/roles/{role_id}' },
  { method: 'DELETE', path: '/guilds/{guild_id}/members/{user_id}/roles/{role_id}' },
];

const COMPONENT_PREFIX = '#/components/schemas/';
const DEFS_PREFIX = '#/$defs/';

/**
 * Places where Discord's published schema is stricter than the live API and than what discord.js sends.
 * Each patch is recorded in the output so a reader sees that the copy is not verbatim.
 */
interface SchemaPatch {
  readonly component: string;
  readonly pointer: readonly string[];
  readonly why: string;
  readonly apply: (node: JsonObject) => JsonObject;
}

const PATCHES: readonly SchemaPatch[] = [
  {
    component: 'ApplicationCommandUpdateRequest',
    pointer: ['properties', 'default_member_permissions'],
    why:
      'The spec types this permission bit set as an integer, but Discord serialises permissions as strings ' +
      'and accepts them here; @discordjs/builders always sends a decimal string (e.g. "32").',
    apply: (node) => ({
      oneOf: [node, { type: 'string', pattern: '^(0|[1-9][0-9]*)$' }],
    }),
  },
];

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asObject(value: Json | undefined, where: string): JsonObject {
  if (!isObject(value)) throw new Error(`Expected an object at ${where}`);
  return value;
}

/** Every component name referenced anywhere below `node`. */
function collectRefs(node: Json, into: Set<string>): void {
  if (Array.isArray(node)) {
    for (const item of node) collectRefs(item, into);
    return;
  }
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') {
      if (!value.startsWith(COMPONENT_PREFIX)) throw new Error(`Unsupported $ref ${value}`);
      into.add(value.slice(COMPONENT_PREFIX.length));
    } else {
      collectRefs(value, into);
    }
  }
}

/** Deep copy with `#/components/schemas/X` rewritten to `#/$defs/X`, so the output is plain JSON Schema. */
function rewriteRefs(node: Json): Json {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] =
      key === '$ref' && typeof value === 'string'
        ? DEFS_PREFIX + value.slice(COMPONENT_PREFIX.length)
        : rewriteRefs(value);
  }
  return out;
}

function applyPatch(defs: JsonObject, patch: SchemaPatch): void {
  let parent = asObject(defs[patch.component], patch.component);
  const path = [...patch.pointer];
  const last = path.pop();
  if (last === undefined) throw new Error('Empty patch pointer');
  for (const segment of path) parent = asObject(parent[segment], `${patch.component}/${segment}`);
  parent[last] = patch.apply(asObject(parent[last], `${patch.component}/${patch.pointer.join('/')}`));
}

/**
 * The shared license file is MIT text followed, without a line break, by a note naming the upstream
 * repository and commit ("...IN THE SOFTWARE.specs/openapi.json of discord/discord-api-spec at commit ...").
 */
function splitLicense(text: string): { license: string; origin: string } {
  const end = 'IN THE SOFTWARE.';
  const at = text.lastIndexOf(end);
  if (at < 0) return { license: text.trimEnd(), origin: 'discord/discord-api-spec (commit unknown)' };
  const origin = text.slice(at + end.length).trim();
  return {
    license: text.slice(0, at + end.length),
    origin: origin.length > 0 ? origin : 'discord/discord-api-spec (commit unknown)',
  };
}

function main(): void {
  const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const sourcePath = resolve(process.argv[2] ?? resolve(repoRoot, '../shared/discord-openapi.json'));
  const licensePath = resolve(dirname(sourcePath), 'discord-openapi.LICENSE');
  const outDir = resolve(repoRoot, 'fakes/discord/schema');

  const spec = asObject(JSON.parse(readFileSync(sourcePath, 'utf8')) as Json, 'root');
  const info = asObject(spec['info'], 'info');
  const paths = asObject(spec['paths'], 'paths');
  const components = asObject(asObject(spec['components'], 'components')['schemas'], 'components.schemas');

  const { license, origin } = splitLicense(readFileSync(licensePath, 'utf8'));

  const defs: JsonObject = {};
  const routes: Json[] = [];
  const needed = new Set<string>();

  for (const route of ROUTES) {
    const pathItem = asObject(paths[route.path], `paths[${route.path}]`);
    const operation = asObject(pathItem[route.method.toLowerCase()], `${route.method} ${route.path}`);
    const operationId = operation['operationId'];
    if (typeof operationId !== 'string') throw new Error(`No operationId for ${route.method} ${route.path}`);
    if (operationId in components) throw new Error(`operationId ${operationId} collides with a component`);
    if (operation['requestBody'] === undefined) {
      // A route without a request body: the fake refuses any body sent to it.
      defs[operationId] = { $comment: 'This route takes no request body.', not: {} };
      routes.push({
        method: route.method,
        path: route.path,
        operationId,
        schema: DEFS_PREFIX + operationId,
        body: false,
      });
      continue;
    }
    const content = asObject(asObject(operation['requestBody'], 'requestBody')['content'], 'content');
    const body = asObject(content['application/json'], 'application/json')['schema'];
    if (body === undefined) throw new Error(`No JSON body schema for ${route.method} ${route.path}`);

    collectRefs(body, needed);
    defs[operationId] = rewriteRefs(body);
    routes.push({ method: route.method, path: route.path, operationId, schema: DEFS_PREFIX + operationId });
  }

  // Transitive closure: a component may reference further components.
  const pending = [...needed];
  while (pending.length > 0) {
    const name = pending.pop();
    if (name === undefined) break;
    const refs = new Set<string>();
    collectRefs(asObject(components[name], `components.schemas.${name}`), refs);
    for (const ref of refs) {
      if (!needed.has(ref)) {
        needed.add(ref);
        pending.push(ref);
      }
    }
  }
  for (const name of [...needed].sort()) defs[name] = rewriteRefs(asObject(components[name], name));
  for (const patch of PATCHES) applyPatch(defs, patch);

  const document: JsonObject = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'urn:discord-api-spec:v10:request-bodies',
    $comment:
      'Generated by scripts/extract-discord-schema.ts; do not edit by hand. Request-body schemas of the Discord ' +
      "routes this bot calls, from Discord's OpenAPI description (MIT, see LICENSE beside this file).",
    'x-source': {
      title: describeScalar(info['title']),
      apiVersion: describeScalar(info['version']),
      openapi: describeScalar(spec['openapi']),
      origin,
    },
    'x-routes': routes,
    'x-patches': PATCHES.map((patch) => ({
      at: `${DEFS_PREFIX}${patch.component}/${patch.pointer.join('/')}`,
      why: patch.why,
    })),
    $defs: defs,
  };

  mkdirSync(outDir, { recursive: true });
  writeFileSync(resolve(outDir, 'discord-requests.json'), `${JSON.stringify(document, null, 2)}\n`);
  writeFileSync(
    resolve(outDir, 'LICENSE'),
    `discord-requests.json in this folder is extracted from Discord's OpenAPI description:\n` +
      `${origin}\nhttps://github.com/discord/discord-api-spec\n` +
      `It was generated by scripts/extract-discord-schema.ts and is covered by the license below.\n\n` +
      `${license}\n`,
  );
  console.log(`Wrote ${routes.length} routes and ${needed.size} components to ${outDir}`);
}

main();

/** A scalar field of the source document as text; anything else is a sign the document is not what we expect. */
function describeScalar(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  throw new Error(`expected a string or number in the OpenAPI document's header, got ${typeof value}`);
}
