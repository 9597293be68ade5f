import express, { type Request, type Response } from 'express';

import type { Clock } from '../../src/base/clock.js';
import {
  FAKE_OPTIONS,
  UPLOAD_LIFETIME_MS,
  WITHDRAWN_STATE,
  type DeveloperRegistry,
  type FakeApp,
  type FakeVersion,
} from './developer-registry.js';
import { sendServiceError } from './error-body.js';
import type { RateLimiter } from './rate-limiter.js';

/** Submissions per account per hour (§8). */
export const SUBMISSIONS_PER_HOUR = 10;
const HOUR_MS = 60 * 60 * 1000;
/** Uploads up to 25 MB (§4.1). */
const MAX_UPLOAD_BYTES = FAKE_OPTIONS.uploadLimits.maxBytes;

export interface DeveloperApiParts {
  developers: DeveloperRegistry;
  limiter: RateLimiter;
  clock: Clock;
  /** Version records carry only id, version and state: the document shows none of their fields (§2.3). */
  minimalVersions: boolean;
}

/**
 * The developer API v1 (upstream-api.md §4.1) as an Express router for `/api/v1`: every request is checked
 * for its `upk_` key, then counted against 60 per minute per key; every answer carries `x-ratelimit-*`.
 * Shapes the document does not show (§2.3) are the fake's guess, which the bot must read tolerantly.
 */
export function createDeveloperRouter(parts: DeveloperApiParts): express.Router {
  const { developers, clock } = parts;
  const describeVersion = parts.minimalVersions ? describeMinimalVersion : describeFullVersion;
  const router = express.Router();

  router.use((req, res, next) => {
    const check = developers.check(req.get('authorization'));
    if (!check.ok) return sendServiceError(res, check.refusal.status, check.refusal.code, check.refusal.message);
    const decision = parts.limiter.take(check.key);
    const window = parts.limiter.status(check.key);
    res.set({
      'x-ratelimit-limit': String(window.limit),
      'x-ratelimit-remaining': String(window.remaining),
      'x-ratelimit-reset': String(window.resetAfterSeconds),
    });
    if (!decision.ok) {
      res.set('retry-after', String(decision.retryAfterSeconds));
      return sendServiceError(res, 429, 'rate_limited', 'Too many requests for this key: 60 per minute.');
    }
    res.locals['accountId'] = check.serverId;
    res.locals['key'] = check.key;
    next();
  });

  router.get('/me', (_req, res) => {
    const key = String(res.locals['key']);
    res.json({
      account: { id: account(res), name: developers.accountName(key), approved: true },
      key: { prefix: key.slice(0, 8), kind: 'developer' },
    });
  });

  router.get('/options', (_req, res) => {
    res.json(FAKE_OPTIONS);
  });

  router.post('/uploads', express.raw({ type: () => true, limit: MAX_UPLOAD_BYTES }), (req, res) => {
    const name = req.query['name'];
    if (typeof name !== 'string' || name.trim() === '') {
      return sendServiceError(res, 400, 'missing_name', 'Give the file name in the name query parameter.');
    }
    const body: unknown = req.body;
    if (!Buffer.isBuffer(body) || body.length === 0) {
      return sendServiceError(res, 400, 'empty_upload', 'Send the file as the raw request body.');
    }
    const upload = developers.addUpload(account(res), name, body);
    const { token, kind, size, files } = upload;
    res.status(201).json({ file: { token, name, kind, size, files } });
  });

  router.get('/uploads', (_req, res) => {
    res.json({
      uploads: developers.unusedUploads(account(res)).map(({ token, name, kind, size, files, createdAt }) => ({
        token,
        name,
        kind,
        size,
        files,
        createdAt,
        expiresAt: createdAt + UPLOAD_LIFETIME_MS,
      })),
    });
  });

  router.get('/store', (_req, res) => {
    res.json({
      apps: developers.catalogApps().map((app) => {
        const latest = [...app.versions].reverse().find((version) => version.status === 'approved');
        return {
          id: app.id,
          name: app.name,
          tagline: stringField(latest?.submission, 'tagline'),
          category: stringField(latest?.submission, 'category'),
          version: latest?.version,
        };
      }),
    });
  });

  router.get('/apps', (_req, res) => {
    res.json({ apps: developers.appsOf(account(res)).map((app) => summarise(developers, app)) });
  });

  router.get('/apps/:id', (req, res) => {
    const app = ownApp(developers, req, res);
    if (!app) return;
    res.json({ ...summarise(developers, app), versions: app.versions.map(describeVersion) });
  });

  router.post('/apps', (req, res) => {
    const body = readSubmission(developers, req, res);
    if (!body || !withinSubmissionLimit(developers, res, clock())) return;
    const { app, version } = developers.createApp(account(res), body);
    res.status(201).json({ app: summarise(developers, app), version: describeVersion(version) });
  });

  router.post('/apps/:id/submissions', (req, res) => {
    const app = ownApp(developers, req, res);
    if (!app) return;
    const body = readSubmission(developers, req, res);
    if (!body || !withinSubmissionLimit(developers, res, clock())) return;
    if (developers.pendingOf(app)) {
      return sendServiceError(res, 409, 'pending_exists', 'A version of this app is already waiting for review.');
    }
    const version = developers.addVersion(app, body);
    res.status(201).json({ version: describeVersion(version) });
  });

  router.delete('/apps/:id/submissions/pending', (req, res) => {
    const app = ownApp(developers, req, res);
    if (!app) return;
    const pending = developers.pendingOf(app);
    if (!pending) return sendServiceError(res, 404, 'no_pending', 'No version of this app is waiting for review.');
    developers.setVersionState(app.id, pending.version, WITHDRAWN_STATE);
    res.json({ withdrawn: describeVersion(pending) });
  });

  router.use((_req, res) => sendServiceError(res, 404, 'not_found', 'No such endpoint.'));
  return router;
}

function account(res: Response): string {
  return String(res.locals['accountId']);
}

function ownApp(developers: DeveloperRegistry, req: Request, res: Response): FakeApp | undefined {
  const id = req.params['id'];
  const app = typeof id === 'string' && /^\d+$/.test(id) ? developers.app(Number(id)) : undefined;
  if (app?.accountId === account(res)) return app;
  sendServiceError(res, 404, 'app_not_found', 'You have no app with that id.');
  return undefined;
}

function summarise(developers: DeveloperRegistry, app: FakeApp) {
  const pending = developers.pendingOf(app);
  const latest = app.versions.at(-1);
  return {
    id: app.id,
    name: app.name,
    createdAt: app.createdAt,
    latestVersion: latest ? { version: latest.version, status: latest.status } : null,
    pending: pending ? { version: pending.version, status: pending.status, since: pending.statusSince } : null,
  };
}

function describeFullVersion(version: FakeVersion): Record<string, unknown> {
  return {
    ...version.submission,
    id: version.id,
    version: version.version,
    status: version.status,
    statusSince: version.statusSince,
    submittedAt: version.submittedAt,
  };
}

function describeMinimalVersion(version: FakeVersion): Record<string, unknown> {
  return { id: version.id, version: version.version, status: version.status };
}

/** The submission body (§2.2), checked as far as the document says; answers 400 itself otherwise. */
function readSubmission(
  developers: DeveloperRegistry,
  req: Request,
  res: Response,
): Record<string, unknown> | undefined {
  if (!req.is('application/json')) {
    sendServiceError(res, 415, 'json_required', 'Send the submission as application/json.');
    return undefined;
  }
  const body: unknown = req.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    sendServiceError(res, 400, 'invalid_body', 'Send a JSON object.');
    return undefined;
  }
  const submission = body as Record<string, unknown>;
  const problem = findProblem(submission) ?? describeUnknownTokens(developers.unknownTokens(account(res), submission));
  if (problem) {
    sendServiceError(res, 400, 'invalid_submission', problem);
    return undefined;
  }
  return submission;
}

function findProblem(body: Record<string, unknown>): string | undefined {
  for (const field of ['name', 'tagline', 'description', 'category', 'version', 'whatsNew']) {
    if (typeof body[field] !== 'string' || body[field] === '') return `${field} is required.`;
  }
  if (String(body['description']).length < 50) return 'description must be at least 50 characters.';
  if (!FAKE_OPTIONS.categories.includes(String(body['category']))) return 'category is not one of the categories.';
  const files = body['files'];
  const hasFiles = Array.isArray(files) && files.length > 0;
  if (!hasFiles && typeof body['repoUrl'] !== 'string') return 'Send files, repoUrl, or both.';
  const ageRating = body['ageRating'];
  if (ageRating !== undefined && !(typeof ageRating === 'string' && FAKE_OPTIONS.ageRatings.includes(ageRating)))
    return 'ageRating is not one of the age ratings.';
  const data: unknown = body['data'];
  const kinds: readonly unknown[] = Array.isArray(data) ? data : [];
  if (
    data !== undefined &&
    (!Array.isArray(data) || !kinds.every((kind) => FAKE_OPTIONS.dataKinds.includes(String(kind))))
  )
    return 'data holds an unknown data kind.';
  return undefined;
}

function describeUnknownTokens(tokens: string[]): string | undefined {
  return tokens.length === 0 ? undefined : `Unknown or used file tokens: ${tokens.length}.`;
}

/** 10 submissions per account per hour (§8); answers 429 with retry-after itself when over. */
function withinSubmissionLimit(developers: DeveloperRegistry, res: Response, now: number): boolean {
  const accountId = account(res);
  const recent = developers.submissions
    .filter((submission) => now - submission.at < HOUR_MS)
    .filter((submission) => developers.app(submission.appId)?.accountId === accountId);
  if (recent.length < SUBMISSIONS_PER_HOUR) return true;
  const oldest = Math.min(...recent.map((submission) => submission.at));
  res.set('retry-after', String(Math.max(1, Math.ceil((oldest + HOUR_MS - now) / 1000))));
  sendServiceError(res, 429, 'submission_limit', 'At most 10 submissions per hour.');
  return false;
}

function stringField(record: Record<string, unknown> | undefined, field: string): string | undefined {
  const value = record?.[field];
  return typeof value === 'string' ? value : undefined;
}
