import { z } from 'zod';

/**
 * The developer API v1's records (upstream-api.md §2.1–§2.3). Where the document shows fields (the upload
 * answer, the submission body) they are typed strictly; where it does not (account, options, apps, versions,
 * uploads list, store) the readers here are tolerant: every field is kept, a few usual names are tried for what
 * we show, and a review state is kept verbatim as the service spells it.
 */

/** The answer of POST /uploads (§2.1). */
export const UploadedFileSchema = z.looseObject({
  file: z.looseObject({
    token: z.string().min(1),
    name: z.string(),
    kind: z.string(),
    size: z.number().int().nonnegative(),
    files: z.number().int().nonnegative(),
  }),
});
export type UploadedFile = z.infer<typeof UploadedFileSchema>['file'];

/** The service deletes an upload no version uses after 24 hours (§2.1, §8). */
export const UPLOAD_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** Uploads may be up to 25 MB (§4.1, §8), unless GET /options says otherwise. */
export const DEFAULT_MAX_UPLOAD_BYTES = 25 * 1024 * 1024;

/** The description must have at least this many characters (§2.2, §8). */
export const MIN_DESCRIPTION_LENGTH = 50;

const Url = z.url({ protocol: /^https?$/, error: 'must be an http(s) address' });

/**
 * A submission (§2.2): the body of POST /apps and POST /apps/:id/submissions. Which fields are required is not
 * documented (§4.1 rule 3), so only what the document states is enforced: the description's length, URL
 * formats, `files` or `repoUrl`. Fields the service may add later are kept.
 */
export const SubmissionSchema = z
  .looseObject({
    name: z.string().min(1),
    tagline: z.string().min(1),
    description: z.string().min(MIN_DESCRIPTION_LENGTH, {
      error: `must be at least ${MIN_DESCRIPTION_LENGTH} characters`,
    }),
    category: z.string().min(1),
    version: z.string().min(1),
    whatsNew: z.string().min(1),
    appUrl: Url.optional(),
    files: z.array(z.string().min(1)).optional(),
    repoUrl: Url.optional(),
    repoRef: z.string().optional(),
    repoAccess: z.string().optional(),
    framework: z.string().optional(),
    buildNotes: z.string().optional(),
    license: z.string().optional(),
    screenshots: z.array(Url).optional(),
    supportUrl: Url.optional(),
    privacyUrl: Url.optional(),
    data: z.array(z.string()).optional(),
    dataNote: z.string().optional(),
    external: z.string().optional(),
    ageRating: z.string().optional(),
    money: z.string().optional(),
    team: z.string().optional(),
    testNotes: z.string().optional(),
    confirmOwn: z.boolean().optional(),
    confirmRules: z.boolean().optional(),
    confirmSame: z.boolean().optional(),
    icon: z.string().startsWith('data:', { error: 'must be a data: URL' }).optional(),
  })
  .refine((submission) => (submission.files?.length ?? 0) > 0 || submission.repoUrl !== undefined, {
    error: 'send files, repoUrl, or both',
    path: ['files'],
  });
export type Submission = z.infer<typeof SubmissionSchema>;

/** The submission fields a version carries that a new version may take over unchanged. */
export const PREFILLED_FIELDS = [
  'name',
  'tagline',
  'description',
  'category',
  'appUrl',
  'repoUrl',
  'repoAccess',
  'framework',
  'buildNotes',
  'license',
  'screenshots',
  'supportUrl',
  'privacyUrl',
  'data',
  'dataNote',
  'external',
  'ageRating',
  'money',
  'team',
  'testNotes',
  'confirmOwn',
  'confirmRules',
  'confirmSame',
] as const;

/** GET /me, as far as we read it: the account's name; everything else is kept in `raw`. */
export interface DeveloperAccount {
  name: string | undefined;
  raw: Record<string, unknown>;
}

/** GET /options, as far as we check submissions against it; a list we cannot find is `undefined`. */
export interface DeveloperOptions {
  categories: string[] | undefined;
  dataKinds: string[] | undefined;
  ageRatings: string[] | undefined;
  repoAccess: string[] | undefined;
  /** Bytes; `undefined` when the answer names no limit (the document's 25 MB applies then). */
  maxUploadBytes: number | undefined;
}

/** A version of one of our apps (GET /apps/:id). */
export interface AppVersion {
  /** The version label ("1.4.0"), or the version's id when it has none: what a card is keyed by. */
  label: string;
  /** The review state exactly as the service spells it; undefined when the record names none. */
  state: string | undefined;
  /** When it entered that state, when the service says (ms since the Unix epoch). */
  stateSince: number | undefined;
  submittedAt: number | undefined;
  /** Waiting for review: what DELETE …/submissions/pending would withdraw. */
  pending: boolean;
  /** Every field of the record, for prefilling the next submission. */
  raw: Record<string, unknown>;
}

/** One of our apps as GET /apps lists it. */
export interface AppSummary {
  id: string;
  name: string;
  /** The waiting version as the list tells it, when it does. */
  pending: { label: string; state: string | undefined; since: number | undefined } | undefined;
  /** The latest version as the list tells it, when it does. */
  latest: { label: string; state: string | undefined } | undefined;
  /** The record as JSON: a change in it means something about the app changed. */
  fingerprint: string;
}

/** One of our apps with its versions (GET /apps/:id), oldest version first. */
export interface AppDetail extends AppSummary {
  versions: AppVersion[];
}

/** An upload not yet part of a version (GET /uploads). */
export interface UnusedUpload {
  name: string;
  kind: string | undefined;
  size: number | undefined;
  createdAt: number | undefined;
  expiresAt: number | undefined;
}

/** An app of the store (GET /store). */
export interface StoreApp {
  id: string;
  name: string;
  tagline: string | undefined;
  category: string | undefined;
  version: string | undefined;
}

const JsonRecord = z.record(z.string(), z.unknown());
type JsonRecord = z.infer<typeof JsonRecord>;
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
  const raw = asRecord(json) ?? {};
  const nested = ['account', 'developer', 'user'].map((key) => asRecord(raw[key])).filter((r) => r !== undefined);
  const name = [raw, ...nested]
    .map((record) => pickString(record, ['name', 'displayName', 'display_name', 'studio', 'username']))
    .find((value) => value !== undefined);
  return { name, raw };
}

/** The lists of GET /options we check submissions against, under the names they are likely to have. */
export function readDeveloperOptions(json: unknown): DeveloperOptions {
  const raw = asRecord(json) ?? {};
  const limits = asRecord(raw['uploadLimits']) ?? asRecord(raw['upload_limits']) ?? asRecord(raw['uploads']) ?? {};
  const hosts = asArray(raw['repositoryHosts'] ?? raw['repository_hosts'] ?? raw['repoHosts'] ?? raw['repositories']);
  const accessKinds = hosts?.flatMap((host) => {
    const record = asRecord(host);
    return readStringList(record?.['access'] ?? record?.['repoAccess'] ?? record?.['accessKinds']) ?? [];
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

/** The apps of GET /apps, in the order given; records without an id are skipped. */
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
  const record = asRecord(json);
  const source = record && 'id' in record ? record : asRecord(record?.['app']);
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
    const record = asRecord(item);
    const file = asRecord(record?.['file']) ?? record;
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
export function readStoreApps(json: unknown): StoreApp[] {
  return (readList(json, 'apps') ?? []).flatMap((item) => {
    const record = asRecord(item);
    const id = AppId.safeParse(record?.['id']);
    const name = record && pickString(record, ['name', 'title']);
    if (!record || !id.success || name === undefined) return [];
    const latest = asRecord(record['latestVersion']) ?? asRecord(record['latest']);
    return [
      {
        id: id.data,
        name,
        tagline: pickString(record, ['tagline', 'summary']),
        category: pickString(record, ['category']),
        version: pickString(record, ['version']) ?? (latest ? pickString(latest, ['version', 'label']) : undefined),
      },
    ];
  });
}

function readAppSummary(item: unknown): AppSummary | undefined {
  const record = asRecord(item);
  const id = AppId.safeParse(record?.['id']);
  if (!record || !id.success) return undefined;
  const name = pickString(record, ['name', 'title']) ?? `App ${id.data}`;
  const withoutVersions = { ...record };
  delete withoutVersions['versions'];
  const latest = readPendingMarker(record['latestVersion'] ?? record['latest']);
  return {
    id: id.data,
    name,
    pending: readPendingMarker(record['pending']),
    latest: latest && { label: latest.label, state: latest.state },
    fingerprint: JSON.stringify(withoutVersions),
  };
}

/** An app's `pending` (or `latestVersion`) field: a version object, a label, or nothing we can read. */
function readPendingMarker(value: unknown): AppSummary['pending'] {
  if (typeof value === 'string' && value !== '') return { label: value, state: undefined, since: undefined };
  const record = asRecord(value);
  const label = record && pickString(record, ['version', 'label', 'versionName']);
  if (!record || label === undefined) return undefined;
  return { label, state: readState(record), since: pickTime(record, STATE_TIME_FIELDS) };
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
  const record = asRecord(item);
  if (!record) return undefined;
  const id = record['id'];
  const label =
    pickString(record, ['version', 'label', 'versionName', 'version_name']) ??
    (typeof id === 'number' || typeof id === 'string' ? String(id) : undefined);
  if (label === undefined) return undefined;
  const state = readState(record);
  const flagged = record['pending'];
  const pending =
    typeof flagged === 'boolean'
      ? flagged
      : pendingLabel !== undefined
        ? label === pendingLabel
        : isPendingState(state);
  return {
    label,
    state,
    stateSince: pickTime(record, STATE_TIME_FIELDS),
    submittedAt: pickTime(record, ['submittedAt', 'submitted_at', 'createdAt', 'created_at']),
    pending,
    raw: record,
  };
}

/** The review state, verbatim: `status`, `state`, `reviewState`, or `review` (a word, or an object with one). */
function readState(record: JsonRecord): string | undefined {
  const direct = pickString(record, ['status', 'state', 'reviewState', 'review_state', 'reviewStatus']);
  if (direct !== undefined) return direct;
  const review = record['review'];
  if (typeof review === 'string') return review;
  const nested = asRecord(review);
  return nested ? pickString(nested, ['status', 'state']) : undefined;
}

/** An array, or the array under `key` (or `items`, `data`, `results`) of an object. */
function readList(json: unknown, key: string): unknown[] | undefined {
  const direct = asArray(json);
  if (direct) return direct;
  const record = asRecord(json);
  if (!record) return undefined;
  return [key, 'items', 'data', 'results'].map((name) => asArray(record[name])).find((list) => list !== undefined);
}

/** A list of words, or of objects naming one (`{ id: 'games', name: 'Games' }` gives `games`). */
function readNamedList(value: unknown): string[] | undefined {
  const list = asArray(value);
  if (!list) return undefined;
  return list.flatMap((item) => {
    if (typeof item === 'string') return [item];
    const record = asRecord(item);
    const word = record && pickString(record, ['id', 'value', 'slug', 'key', 'name']);
    return word === undefined ? [] : [word];
  });
}

function readStringList(value: unknown): string[] | undefined {
  const list = asArray(value);
  return list?.every((item) => typeof item === 'string') ? list : undefined;
}

function asRecord(value: unknown): JsonRecord | undefined {
  const parsed = JsonRecord.safeParse(value);
  return parsed.success && !Array.isArray(value) ? parsed.data : undefined;
}

function asArray(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? (value as unknown[]) : undefined;
}

function pickString(record: JsonRecord, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = record[name];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}

function pickNumber(record: JsonRecord, names: readonly string[]): number | undefined {
  for (const name of names) {
    const value = record[name];
    if (typeof value === 'number' && Number.isFinite(value)) return value;
  }
  return undefined;
}

/** A time as milliseconds since the epoch: from epoch milliseconds, epoch seconds or an ISO date. */
function pickTime(record: JsonRecord, names: readonly string[]): number | undefined {
  for (const name of names) {
    const value = record[name];
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) {
      // Below 10^11 a number cannot be milliseconds of any date after 1973: it is seconds.
      return value < 1e11 ? value * 1000 : value;
    }
    if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value)) {
      const at = Date.parse(value);
      if (!Number.isNaN(at)) return at;
    }
  }
  return undefined;
}
