import { z } from 'zod';

import type {
  AppDetail,
  AppSummary,
  AppVersion,
  CatalogApp,
  DeveloperAccount,
  DeveloperOptions,
  UnusedUpload,
} from './developer-schemas.js';
import {
  asArray,
  asJsonObject,
  pickNumber,
  pickString,
  pickTime,
  readList,
  readNamedList,
  readStringList,
  type JsonObject,
} from './tolerant-json.js';

/**
 * The readers of the developer API's objects whose fields the document does not show (account, options, apps,
 * versions, uploads list, store; see developer-schemas.ts): every field is kept, a few usual names are tried
 * for what we show, and a review state is kept verbatim as the service spells it.
 */

const AppId = z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/)]).transform(String);

/** Words that say a version waits for review (the states are not documented, §3). */
const PENDING_WORDS = /pending|review|waiting|submitted|queued|processing|in.?progress/i;
/** Words that say review is over, even when a pending word is there too ("review_rejected"). */
const DONE_WORDS = /approv|reject|withdraw|publish|denied|declin|cancel|removed|released|live|accepted|failed/i;

/** True when a review state, as the service spells it, reads as waiting for review. */
export function isPendingState(state: string | undefined): boolean {
  return state !== undefined && PENDING_WORDS.test(state) && !DONE_WORDS.test(state);
}

/** The account's name from GET /me, wherever it is: `name`, `account.name`, `developer.name`, … */
export function readDeveloperAccount(json: unknown): DeveloperAccount {
  const raw = asJsonObject(json) ?? {};
  const nested = ['account', 'developer', 'user'].map((key) => asJsonObject(raw[key])).filter((r) => r !== undefined);
  const name = [raw, ...nested]
    .map((object) => pickString(object, ['name', 'displayName', 'display_name', 'studio', 'username']))
    .find((value) => value !== undefined);
  return { name, raw };
}

/** The lists of GET /options we check submissions against, under the names they are likely to have. */
export function readDeveloperOptions(json: unknown): DeveloperOptions {
  const raw = asJsonObject(json) ?? {};
  const limits =
    asJsonObject(raw['uploadLimits']) ?? asJsonObject(raw['upload_limits']) ?? asJsonObject(raw['uploads']) ?? {};
  const hosts = asArray(raw['repositoryHosts'] ?? raw['repository_hosts'] ?? raw['repoHosts'] ?? raw['repositories']);
  const accessKinds = hosts?.flatMap((host) => {
    const object = asJsonObject(host);
    return readStringList(object?.['access'] ?? object?.['repoAccess'] ?? object?.['accessKinds']) ?? [];
  });
  const ownAccess = readStringList(raw['repoAccess'] ?? raw['repositoryAccess']);
  return {
    categories: readNamedList(raw['categories']),
    dataKinds: readNamedList(raw['dataKinds'] ?? raw['data_kinds'] ?? raw['data']),
    ageRatings: readNamedList(raw['ageRatings'] ?? raw['age_ratings']),
    repoAccess: ownAccess ?? (accessKinds && accessKinds.length > 0 ? [...new Set(accessKinds)] : undefined),
    maxUploadBytes: pickNumber(limits, ['maxBytes', 'max_bytes', 'maxSize', 'bytes']),
  };
}

/** The apps of GET /apps, in the order given; objects without an id are skipped. */
export function readAppList(json: unknown): AppSummary[] {
  return (readList(json, 'apps') ?? []).flatMap((item) => {
    const summary = readAppSummary(item);
    return summary ? [summary] : [];
  });
}

/**
 * One app with its versions from GET /apps/:id, bare or wrapped as `{ app: {…} }`; undefined when it has no id.
 * Versions are sorted oldest first by submission time when every version has one, else kept in order.
 */
export function readAppDetail(json: unknown): AppDetail | undefined {
  const object = asJsonObject(json);
  const source = object && 'id' in object ? object : asJsonObject(object?.['app']);
  const summary = readAppSummary(source);
  if (!summary || !source) return undefined;
  const pendingLabel = summary.pending?.label;
  const versions = (asArray(source['versions']) ?? []).flatMap((item) => {
    const version = readVersion(item, pendingLabel);
    return version ? [version] : [];
  });
  if (versions.every((version) => version.submittedAt !== undefined)) {
    versions.sort((a, b) => (a.submittedAt ?? 0) - (b.submittedAt ?? 0));
  }
  return { ...summary, versions };
}

/** The unused uploads of GET /uploads. */
export function readUnusedUploads(json: unknown): UnusedUpload[] {
  return (readList(json, 'uploads') ?? []).flatMap((item) => {
    const object = asJsonObject(item);
    const file = asJsonObject(object?.['file']) ?? object;
    const name = file && pickString(file, ['name', 'fileName', 'filename']);
    if (!file || name === undefined) return [];
    return [
      {
        name,
        kind: pickString(file, ['kind', 'type']),
        size: pickNumber(file, ['size', 'bytes']),
        createdAt: pickTime(file, ['createdAt', 'created_at', 'uploadedAt', 'uploaded_at']),
        expiresAt: pickTime(file, ['expiresAt', 'expires_at', 'deleteAt', 'delete_at']),
      },
    ];
  });
}

/** The apps of GET /store. */
export function readCatalogApps(json: unknown): CatalogApp[] {
  return (readList(json, 'apps') ?? []).flatMap((item) => {
    const object = asJsonObject(item);
    const id = AppId.safeParse(object?.['id']);
    const name = object && pickString(object, ['name', 'title']);
    if (!object || !id.success || name === undefined) return [];
    const latest = asJsonObject(object['latestVersion']) ?? asJsonObject(object['latest']);
    return [
      {
        id: id.data,
        name,
        tagline: pickString(object, ['tagline', 'summary']),
        category: pickString(object, ['category']),
        version: pickString(object, ['version']) ?? (latest ? pickString(latest, ['version', 'label']) : undefined),
      },
    ];
  });
}

function readAppSummary(item: unknown): AppSummary | undefined {
  const object = asJsonObject(item);
  const id = AppId.safeParse(object?.['id']);
  if (!object || !id.success) return undefined;
  const name = pickString(object, ['name', 'title']) ?? `App ${id.data}`;
  const withoutVersions = { ...object };
  delete withoutVersions['versions'];
  const latest = readPendingMarker(object['latestVersion'] ?? object['latest']);
  return {
    id: id.data,
    name,
    pending: readPendingMarker(object['pending']),
    latest: latest && { label: latest.label, state: latest.state },
    fingerprint: JSON.stringify(withoutVersions),
  };
}

/** An app's `pending` (or `latestVersion`) field: a version object, a label, or nothing we can read. */
function readPendingMarker(value: unknown): AppSummary['pending'] {
  if (typeof value === 'string' && value !== '') return { label: value, state: undefined, since: undefined };
  const object = asJsonObject(value);
  const label = object && pickString(object, ['version', 'label', 'versionName']);
  if (!object || label === undefined) return undefined;
  return { label, state: readState(object), since: pickTime(object, STATE_TIME_FIELDS) };
}

const STATE_TIME_FIELDS = [
  'statusSince',
  'stateSince',
  'since',
  'statusChangedAt',
  'stateChangedAt',
  'updatedAt',
  'reviewedAt',
];

function readVersion(item: unknown, pendingLabel: string | undefined): AppVersion | undefined {
  const object = asJsonObject(item);
  if (!object) return undefined;
  const id = object['id'];
  const label =
    pickString(object, ['version', 'label', 'versionName', 'version_name']) ??
    (typeof id === 'number' || typeof id === 'string' ? String(id) : undefined);
  if (label === undefined) return undefined;
  const state = readState(object);
  const flagged = object['pending'];
  const pending =
    typeof flagged === 'boolean'
      ? flagged
      : pendingLabel !== undefined
        ? label === pendingLabel
        : isPendingState(state);
  return {
    label,
    state,
    stateSince: pickTime(object, STATE_TIME_FIELDS),
    submittedAt: pickTime(object, ['submittedAt', 'submitted_at', 'createdAt', 'created_at']),
    pending,
    raw: object,
  };
}

/** The review state, verbatim: `status`, `state`, `reviewState`, or `review` (a word, or an object with one). */
function readState(object: JsonObject): string | undefined {
  const direct = pickString(object, ['status', 'state', 'reviewState', 'review_state', 'reviewStatus']);
  if (direct !== undefined) return direct;
  const review = object['review'];
  if (typeof review === 'string') return review;
  const nested = asJsonObject(review);
  return nested ? pickString(nested, ['status', 'state']) : undefined;
}
