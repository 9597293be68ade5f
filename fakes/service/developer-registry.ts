import { randomBytes } from 'node:crypto';

import type { KeyCheck } from './key-registry.js';

/** Unused uploads live this long, then the service deletes them (§2.1, §8). */
export const UPLOAD_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** Review states the fake counts as "waiting for review": DELETE …/submissions/pending withdraws these. */
export const PENDING_STATES: ReadonlySet<string> = new Set(['submitted', 'in_review']);
/** The state a version enters when submitted; tests and the demo move it on with `setVersionState`. */
export const FIRST_REVIEW_STATE = 'submitted';
/** The state of a withdrawn version. */
export const WITHDRAWN_STATE = 'withdrawn';

/** What the fake's GET /options answers (§2.3 names the parts; the shape is the fake's guess). */
export const FAKE_OPTIONS = {
  categories: ['games', 'tools', 'social', 'education', 'utilities'],
  dataKinds: ['none', 'usage', 'account', 'location'],
  ageRatings: ['everyone', 'teen', 'mature'],
  money: ['free', 'paid', 'in_app'],
  repositoryHosts: [
    { host: 'github.com', access: ['public', 'private'] },
    { host: 'gitlab.com', access: ['public', 'private'] },
  ],
  uploadLimits: { maxBytes: 25 * 1024 * 1024, kinds: ['zip', 'tar.gz', 'tar', 'file'] },
};

/** One version of an app, with the submission it came from. */
export interface FakeVersion {
  id: number;
  version: string;
  status: string;
  /** When the version entered its current state. */
  statusSince: number;
  submittedAt: number;
  submission: Record<string, unknown>;
}

/** One app of a developer account. */
export interface FakeApp {
  id: number;
  accountId: string;
  name: string;
  createdAt: number;
  versions: FakeVersion[];
}

/** One upload (POST /uploads), bytes included so tests can compare them. */
export interface FakeUpload {
  token: string;
  accountId: string;
  name: string;
  kind: string;
  size: number;
  files: number;
  createdAt: number;
  bytes: Buffer;
  /** The version that used it; null while unused. */
  usedBy: number | null;
}

/** A submission the fake accepted (POST /apps or POST /apps/:id/submissions). */
export interface FakeSubmission {
  appId: number;
  /** null for a first app (POST /apps). */
  path: string;
  body: Record<string, unknown>;
  at: number;
}

interface Account {
  id: string;
  name: string;
  revoked: boolean;
}

/**
 * The developer side of the fake: accounts and their `upk_` keys (a new key stops the old one, §5.4; revoked
 * access answers 403, §5.7), apps with versions whose review state tests move, and uploads with their 24 h life.
 */
export class DeveloperRegistry {
  private readonly accounts = new Map<string, Account>();
  private readonly accountOfKey = new Map<string, string>();
  private readonly apps = new Map<number, FakeApp>();
  private readonly uploads = new Map<string, FakeUpload>();
  readonly submissions: FakeSubmission[] = [];
  private nextAccount = 1;
  private nextApp = 101;
  private nextVersion = 1;

  constructor(private readonly clock: () => number) {}

  /** A fresh developer key for a new account named `name` (or for the account of `sameAccountAs`). */
  issueKey(name = `Studio ${this.nextAccount}`): string {
    const account: Account = { id: `dev_${this.nextAccount++}`, name, revoked: false };
    this.accounts.set(account.id, account);
    return this.keyFor(account.id);
  }

  /** A new key for the key's account; the old one answers 401 from now on. */
  replaceKey(oldKey: string): string {
    const accountId = this.requireAccount(oldKey).id;
    this.accountOfKey.delete(oldKey);
    return this.keyFor(accountId);
  }

  /** Revokes developer access: every key of the account answers 403. */
  revoke(key: string): void {
    this.requireAccount(key).revoked = true;
  }

  accountName(key: string): string {
    return this.requireAccount(key).name;
  }

  /** Checks an Authorization header as the developer API does. */
  check(authorization: string | undefined): KeyCheck {
    const key = /^Bearer (\S+)$/i.exec(authorization ?? '')?.[1];
    if (key === undefined)
      return refuse(401, 'missing_key', 'Send the developer key as "Authorization: Bearer upk_…".');
    if (key.startsWith('usk_'))
      return refuse(401, 'wrong_key_kind', 'This is a server key; the developer API needs a developer key (upk_…).');
    const accountId = this.accountOfKey.get(key);
    const account = accountId === undefined ? undefined : this.accounts.get(accountId);
    if (!account) return refuse(401, 'invalid_key', 'The developer key is wrong, replaced or revoked.');
    if (account.revoked) return refuse(403, 'access_revoked', 'Developer access was revoked.');
    return { ok: true, key, serverId: account.id };
  }

  /** Adds an app with versions, as if submitted and reviewed earlier; returns its id. */
  addApp(
    key: string,
    input: { name: string; versions: ReadonlyArray<{ version: string; status: string; submission?: object }> },
  ): number {
    const accountId = this.requireAccount(key).id;
    const now = this.clock();
    const app: FakeApp = { id: this.nextApp++, accountId, name: input.name, createdAt: now, versions: [] };
    for (const version of input.versions) {
      app.versions.push(this.makeVersion(version.version, version.status, { name: input.name, ...version.submission }));
    }
    this.apps.set(app.id, app);
    return app.id;
  }

  /** Adds a version to an app as if sent from the developer portal (no submission is counted). */
  seedVersion(appId: number, input: { version: string; status: string; submission?: object }): void {
    const app = this.requireApp(appId);
    const latest = app.versions.at(-1)?.submission ?? { name: app.name };
    app.versions.push(this.makeVersion(input.version, input.status, { ...latest, ...input.submission }));
  }

  /** Moves a version to another review state (any string: the real states are not documented). */
  setVersionState(appId: number, version: string, status: string): void {
    const found = this.requireApp(appId).versions.find((candidate) => candidate.version === version);
    if (!found) throw new Error(`app ${appId} has no version ${version}`);
    found.status = status;
    found.statusSince = this.clock();
  }

  app(appId: number): FakeApp | undefined {
    return this.apps.get(appId);
  }

  requireApp(appId: number): FakeApp {
    const app = this.apps.get(appId);
    if (!app) throw new Error(`no app ${appId}`);
    return app;
  }

  appsOf(accountId: string): FakeApp[] {
    return [...this.apps.values()].filter((app) => app.accountId === accountId);
  }

  /** Apps with an approved version: what the store lists. */
  catalogApps(): FakeApp[] {
    return [...this.apps.values()].filter((app) => app.versions.some((version) => version.status === 'approved'));
  }

  pendingOf(app: FakeApp): FakeVersion | undefined {
    return app.versions.find((version) => PENDING_STATES.has(version.status));
  }

  /** Stores an upload; the kind follows the file name. */
  addUpload(accountId: string, name: string, bytes: Buffer): FakeUpload {
    const kind = /\.tar\.gz$/i.test(name) ? 'tar.gz' : (/\.(zip|tar)$/i.exec(name)?.[1]?.toLowerCase() ?? 'file');
    const upload: FakeUpload = {
      token: `upl_${randomBytes(12).toString('hex')}`,
      accountId,
      name,
      kind,
      size: bytes.length,
      files: 1,
      createdAt: this.clock(),
      bytes,
      usedBy: null,
    };
    this.uploads.set(upload.token, upload);
    return upload;
  }

  /** Unused uploads of the account that have not reached their 24 h yet; expired ones are deleted. */
  unusedUploads(accountId: string): FakeUpload[] {
    const now = this.clock();
    for (const [token, upload] of this.uploads) {
      if (upload.usedBy === null && now - upload.createdAt >= UPLOAD_LIFETIME_MS) this.uploads.delete(token);
    }
    return [...this.uploads.values()].filter((upload) => upload.accountId === accountId && upload.usedBy === null);
  }

  /** Every upload ever made, with bytes (a copy of the list). */
  allUploads(): FakeUpload[] {
    return [...this.uploads.values()];
  }

  /** Creates an app from a first submission. */
  createApp(accountId: string, body: Record<string, unknown>): { app: FakeApp; version: FakeVersion } {
    const name = typeof body['name'] === 'string' ? body['name'] : 'Untitled';
    const app: FakeApp = { id: this.nextApp++, accountId, name, createdAt: this.clock(), versions: [] };
    const version = this.makeVersion(String(body['version']), FIRST_REVIEW_STATE, body);
    app.versions.push(version);
    this.apps.set(app.id, app);
    this.useUploads(body, version.id);
    this.submissions.push({ appId: app.id, path: '/apps', body, at: this.clock() });
    return { app, version };
  }

  /** Adds a version to an app for review. */
  addVersion(app: FakeApp, body: Record<string, unknown>): FakeVersion {
    const version = this.makeVersion(String(body['version']), FIRST_REVIEW_STATE, body);
    app.versions.push(version);
    if (typeof body['name'] === 'string') app.name = body['name'];
    this.useUploads(body, version.id);
    this.submissions.push({ appId: app.id, path: `/apps/${app.id}/submissions`, body, at: this.clock() });
    return version;
  }

  /** Unknown file tokens of a submission (not uploaded, another account's, or already used). */
  unknownTokens(accountId: string, body: Record<string, unknown>): string[] {
    const files = Array.isArray(body['files']) ? (body['files'] as unknown[]) : [];
    return files.map(String).filter((token) => {
      const upload = this.uploads.get(token);
      return !upload || upload.accountId !== accountId || upload.usedBy !== null;
    });
  }

  private useUploads(body: Record<string, unknown>, versionId: number): void {
    const files = Array.isArray(body['files']) ? (body['files'] as unknown[]) : [];
    for (const token of files) {
      const upload = this.uploads.get(String(token));
      if (upload) upload.usedBy = versionId;
    }
  }

  private makeVersion(label: string, status: string, submission: Record<string, unknown>): FakeVersion {
    const now = this.clock();
    return { id: this.nextVersion++, version: label, status, statusSince: now, submittedAt: now, submission };
  }

  private keyFor(accountId: string): string {
    const key = `upk_${randomBytes(24).toString('hex')}`;
    this.accountOfKey.set(key, accountId);
    return key;
  }

  private requireAccount(key: string): Account {
    const accountId = this.accountOfKey.get(key);
    const account = accountId === undefined ? undefined : this.accounts.get(accountId);
    if (!account) throw new Error('the fake service does not know this developer key (replaced, or never issued)');
    return account;
  }
}

function refuse(status: 401 | 403, code: string, message: string): KeyCheck {
  return { ok: false, refusal: { status, code, message } };
}
