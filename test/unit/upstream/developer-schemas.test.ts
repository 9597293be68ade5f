import { describe, expect, it } from 'vitest';

import { SubmissionSchema } from '../../../src/upstream/developer-schemas.js';
import {
  isPendingState,
  readAppDetail,
  readAppList,
  readCatalogApps,
  readDeveloperAccount,
  readDeveloperOptions,
  readUnusedUploads,
} from '../../../src/upstream/read-developer-objects.js';

const T = Date.UTC(2026, 10, 20, 12, 0, 0);

describe('isPendingState', () => {
  it('reads waiting words as pending, and an outcome as not, even next to a waiting word', () => {
    for (const state of ['pending', 'in_review', 'IN REVIEW', 'submitted', 'waiting_for_review', 'queued'])
      expect(isPendingState(state), state).toBe(true);
    for (const state of ['approved', 'review_rejected', 'withdrawn', 'published', 'live', undefined, 'draft'])
      expect(isPendingState(state), String(state)).toBe(false);
  });
});

describe('readDeveloperAccount', () => {
  it('finds the name at the top or in account, developer or user, and keeps everything', () => {
    expect(readDeveloperAccount({ name: 'Top' }).name).toBe('Top');
    expect(readDeveloperAccount({ account: { displayName: 'Nested' }, key: {} })).toEqual({
      name: 'Nested',
      raw: { account: { displayName: 'Nested' }, key: {} },
    });
    expect(readDeveloperAccount({ developer: { studio: 'Studio' } }).name).toBe('Studio');
    expect(readDeveloperAccount('nonsense')).toEqual({ name: undefined, raw: {} });
  });
});

describe('readDeveloperOptions', () => {
  it('reads the lists under their usual names, words or objects', () => {
    expect(
      readDeveloperOptions({
        categories: [{ id: 'games', name: 'Games' }, 'tools', 42],
        data_kinds: ['none', 'usage'],
        age_ratings: [{ value: 'everyone' }],
        repositoryHosts: [
          { host: 'github.com', access: ['public', 'private'] },
          { host: 'gitlab.com', access: ['public'] },
        ],
        upload_limits: { max_bytes: 1000 },
      }),
    ).toEqual({
      categories: ['games', 'tools'],
      dataKinds: ['none', 'usage'],
      ageRatings: ['everyone'],
      repoAccess: ['public', 'private'],
      maxUploadBytes: 1000,
    });
  });

  it('leaves out what it cannot find, so nothing is checked against a guess', () => {
    expect(readDeveloperOptions({ repoAccess: ['public'], repositoryHosts: [{ host: 'x' }] })).toEqual({
      categories: undefined,
      dataKinds: undefined,
      ageRatings: undefined,
      repoAccess: ['public'],
      maxUploadBytes: undefined,
    });
    expect(readDeveloperOptions(null).repoAccess).toBeUndefined();
  });
});

describe('readAppList', () => {
  it('reads a bare array or a list under apps, items, data or results, skipping records without an id', () => {
    const apps = [{ id: 7, name: 'Seven' }, { id: '8' }, { name: 'no id' }, 'junk'];
    for (const json of [apps, { apps }, { items: apps }, { data: apps }, { results: apps }]) {
      expect(readAppList(json).map((app) => [app.id, app.name])).toEqual([
        ['7', 'Seven'],
        ['8', 'App 8'],
      ]);
    }
    expect(readAppList({ nothing: true })).toEqual([]);
  });

  it('reads the pending version an app names, as an object or a label, and a fingerprint without versions', () => {
    const [object, label, none] = readAppList([
      { id: 1, name: 'A', pending: { version: '2.0', status: 'in_review', since: T }, versions: [1, 2] },
      { id: 2, name: 'B', pending: '3.1' },
      { id: 3, name: 'C', pending: { nothing: 1 } },
    ]);
    expect(object?.pending).toEqual({ label: '2.0', state: 'in_review', since: T });
    expect(object?.fingerprint).not.toContain('versions');
    expect(label?.pending).toEqual({ label: '3.1', state: undefined, since: undefined });
    expect(none?.pending).toBeUndefined();
  });
});

describe('readAppDetail', () => {
  it('reads versions with their verbatim state, times in ms, s or ISO, sorted by submission', () => {
    const detail = readAppDetail({
      app: {
        id: 5,
        name: 'Five',
        versions: [
          {
            version: '1.1',
            state: 'Waiting For Review',
            stateChangedAt: '2026-11-20T12:00:00Z',
            submittedAt: T / 1000,
          },
          { label: '1.0', review: { status: 'approved' }, updatedAt: T - 1000, created_at: T - 5000 },
        ],
      },
    });
    expect(detail?.versions.map((v) => [v.label, v.state, v.stateSince, v.submittedAt, v.pending])).toEqual([
      ['1.0', 'approved', T - 1000, T - 5000, false],
      ['1.1', 'Waiting For Review', T, T, true],
    ]);
  });

  it('trusts an explicit pending flag or the app-level pending label over the words', () => {
    const flagged = readAppDetail({ id: 1, versions: [{ version: '1', status: 'approved', pending: true }] });
    expect(flagged?.versions[0]?.pending).toBe(true);
    const named = readAppDetail({
      id: 1,
      pending: '2',
      versions: [
        { version: '1', status: 'in_review' },
        { version: '2', status: 'something new' },
      ],
    });
    expect(named?.versions.map((v) => v.pending)).toEqual([false, true]);
  });

  it('keys a version without a label by its id, keeps unsorted order without times, and skips the rest', () => {
    const detail = readAppDetail({
      id: 9,
      versions: [{ id: 33, review: 'queued' }, { nothing: true }, 'junk', { version: 'b' }],
    });
    expect(detail?.versions.map((v) => [v.label, v.state])).toEqual([
      ['33', 'queued'],
      ['b', undefined],
    ]);
    expect(readAppDetail({ name: 'no id' })).toBeUndefined();
    expect(readAppDetail(undefined)).toBeUndefined();
  });
});

describe('readUnusedUploads and readCatalogApps', () => {
  it('read what they can of each record', () => {
    expect(
      readUnusedUploads({
        uploads: [
          { file: { name: 'a.zip', kind: 'zip', size: 3, uploadedAt: T } },
          { filename: 'b.tar', expires_at: T },
          { token: 'no name' },
        ],
      }),
    ).toEqual([
      { name: 'a.zip', kind: 'zip', size: 3, createdAt: T, expiresAt: undefined },
      { name: 'b.tar', kind: undefined, size: undefined, createdAt: undefined, expiresAt: T },
    ]);
    expect(
      readCatalogApps([
        { id: 1, name: 'One', tagline: 't', category: 'games', version: '1.0' },
        { id: 2, title: 'Two', latestVersion: { label: '2.0' } },
        { id: 'x', name: 'bad id' },
      ]),
    ).toEqual([
      { id: '1', name: 'One', tagline: 't', category: 'games', version: '1.0' },
      { id: '2', name: 'Two', tagline: undefined, category: undefined, version: '2.0' },
    ]);
  });
});

describe('SubmissionSchema', () => {
  const base = {
    name: 'App',
    tagline: 'Line',
    description: 'd'.repeat(50),
    category: 'games',
    version: '1.0',
    whatsNew: 'First',
    files: ['upl_1'],
  };

  it('accepts a submission with files or a repository and keeps unknown fields', () => {
    expect(SubmissionSchema.parse({ ...base, future: 1 })).toMatchObject({ future: 1 });
    expect(SubmissionSchema.safeParse({ ...base, files: undefined, repoUrl: 'https://github.com/a/b' }).success).toBe(
      true,
    );
  });

  it('refuses a short description, a bad URL and a submission with neither files nor repository', () => {
    const problems = (value: object) =>
      SubmissionSchema.safeParse(value).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    expect(problems({ ...base, description: 'short' })).toEqual(['description: must be at least 50 characters']);
    expect(problems({ ...base, supportUrl: 'ftp://x' })).toEqual(['supportUrl: must be an http(s) address']);
    expect(problems({ ...base, files: [] })).toEqual(['files: send files, repoUrl, or both']);
  });
});
