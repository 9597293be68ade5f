import { z } from 'zod';

/**
 * The developer API v1's objects (upstream-api.md §2.1–§2.3). Where the document shows fields (the upload
 * answer, the submission body) they are typed strictly; where it does not (account, options, apps, versions,
 * uploads list, store) only their types are here, and their readers (read-developer-objects.ts) are tolerant.
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
  /** The object as JSON: a change in it means something about the app changed. */
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
export interface CatalogApp {
  id: string;
  name: string;
  tagline: string | undefined;
  category: string | undefined;
  version: string | undefined;
}
