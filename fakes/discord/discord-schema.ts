/**
 * Loads the extracted Discord request schema and compiles one ajv validator per route.
 */
import { readFileSync } from 'node:fs';
import addFormats from 'ajv-formats';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

/** A route of the extracted schema, ready to match and validate. */
export interface CompiledRoute {
  readonly method: string;
  /** The OpenAPI template, e.g. `/channels/{channel_id}/messages`. */
  readonly path: string;
  readonly operationId: string;
  /** False for a route that takes no request body (a role added to a member): any body is refused. */
  readonly takesBody: boolean;
  readonly pattern: RegExp;
  /** The route's validator, compiled on first call (the routes together take over a second to compile). */
  readonly validator: () => ValidateFunction;
}

interface RouteEntry {
  readonly method: string;
  readonly path: string;
  readonly operationId: string;
  readonly schema: string;
  /** False: the route takes no body. */
  readonly body?: boolean;
}

type SchemaNode = Record<string, unknown>;

interface SchemaDocument {
  readonly $id: string;
  readonly 'x-routes': readonly RouteEntry[];
  readonly $defs: Record<string, SchemaNode>;
}

const SCHEMA_URL = new URL('./schema/discord-requests.json', import.meta.url);
const DEFS_PREFIX = '#/$defs/';

function isNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Turns `/webhooks/{webhook_id}/{webhook_token}` into a regex over concrete paths. */
function templateToPattern(template: string): RegExp {
  const source = template
    .split('/')
    .map((segment) => (/^\{\w+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}

/** The `type` tag values of a referenced object schema that requires `type`, or undefined otherwise. */
function tagValues(defs: Record<string, SchemaNode>, branch: unknown): unknown[] | undefined {
  if (!isNode(branch) || typeof branch['$ref'] !== 'string') return undefined;
  const target = defs[branch['$ref'].slice(DEFS_PREFIX.length)];
  const properties = target?.['properties'];
  const required = target?.['required'];
  if (!isNode(properties) || !Array.isArray(required) || !required.includes('type')) return undefined;
  const tag = properties['type'];
  if (!isNode(tag)) return undefined;
  const values: unknown = tag['enum'];
  if (Array.isArray(values)) return values as unknown[];
  return 'const' in tag ? [tag['const']] : undefined;
}

/**
 * Discord's unions of components, command options and callbacks are tagged by an integer `type`, but the spec
 * writes them as plain `oneOf`/`anyOf`, so one bad field makes ajv report every branch. ajv's discriminator
 * only takes string tags, so each such union is rewritten into the equivalent "type must be one of these,
 * and if type is X then the body must match branch X", which yields one precise message. Unions marked
 * `x-discord-union: oneOf` are `anyOf` in the file; with distinct tags the rewrite is exact for both.
 */
function rewriteTaggedUnions(defs: Record<string, SchemaNode>, node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) rewriteTaggedUnions(defs, item);
    return;
  }
  if (!isNode(node)) return;
  const key = 'oneOf' in node ? 'oneOf' : node['x-discord-union'] === 'oneOf' ? 'anyOf' : undefined;
  const union: unknown = key === undefined ? undefined : node[key];
  // Only a bare union is rewritten: the rewrite sets these keywords itself.
  const bare = !['type', 'properties', 'required', 'allOf'].some((keyword) => keyword in node);
  if (key !== undefined && bare && Array.isArray(union) && union.length > 1) {
    const branches: unknown[] = union;
    const tags = branches.map((branch) => tagValues(defs, branch));
    const flat = tags.flatMap((values) => values ?? []);
    if (tags.every((values) => values !== undefined) && new Set(flat).size === flat.length) {
      delete node[key];
      node['type'] = 'object';
      node['required'] = ['type'];
      node['properties'] = { type: { enum: flat } };
      node['allOf'] = branches.map((branch, index) => ({
        if: { required: ['type'], properties: { type: { enum: tags[index] } } },
        then: branch,
      }));
    }
  }
  for (const value of Object.values(node)) rewriteTaggedUnions(defs, value);
}

/** Reads `schema/discord-requests.json` and prepares a (lazily compiled) validator for each of its routes. */
export function compileDiscordRoutes(): CompiledRoute[] {
  const document = JSON.parse(readFileSync(SCHEMA_URL, 'utf8')) as SchemaDocument;
  rewriteTaggedUnions(document.$defs, document.$defs);

  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    // OpenAPI writes `type: [string, null]` and tags unions with `type` inside branches; both are fine.
    strictTypes: false,
    allowUnionTypes: true,
    inlineRefs: false,
  });
  addFormats.default(ajv);
  // OpenAPI extensions are annotations, not assertions.
  for (const keyword of ['x-discord-union', 'x-source', 'x-routes', 'x-patches']) ajv.addKeyword(keyword);
  // Discord's own formats: a snowflake is a decimal id (it also carries a pattern); a nonce is free-form.
  ajv.addFormat('snowflake', /^(0|[1-9][0-9]*)$/);
  ajv.addFormat('nonce', true);
  ajv.addSchema(document);

  return document['x-routes'].map((route) => {
    let validate: ValidateFunction | undefined;
    return {
      method: route.method,
      path: route.path,
      operationId: route.operationId,
      takesBody: route.body !== false,
      pattern: templateToPattern(route.path),
      validator: () => {
        validate ??= ajv.getSchema(`${document.$id}${route.schema}`);
        if (!validate) throw new Error(`Schema ${route.schema} missing from ${SCHEMA_URL.pathname}`);
        return validate;
      },
    };
  });
}
