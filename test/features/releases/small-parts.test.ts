import { describe, expect, it } from 'vitest';

import {
  checkSubmission,
  prefillFromVersion,
  readNewAppDetails,
} from '../../../src/features/releases/build-submission.js';
import { readDeveloperKeyInput } from '../../../src/features/releases/developer-key.js';
import { createAttachmentDownloader } from '../../../src/features/releases/download-attachment.js';
import { DRAFT_LIFETIME_MS, Drafts, MAX_DRAFTS } from '../../../src/features/releases/drafts.js';
import { SingleFlightCache } from '../../../src/features/releases/single-flight-cache.js';
import { returnSubmissionSlot, takeSubmissionSlot } from '../../../src/features/releases/submission-quota.js';
import { openAppDocuments } from '../../helpers/app-documents.js';

describe('readDeveloperKeyInput', () => {
  it('forgives a Bearer prefix and refuses spaces inside', () => {
    expect(readDeveloperKeyInput('  Bearer upk_0123456789abcdef ')).toEqual({ ok: true, key: 'upk_0123456789abcdef' });
    expect(readDeveloperKeyInput('upk_0123 456789abcdef')).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/spaces/) as string,
    });
  });
});

describe('Drafts', () => {
  it('forgets drafts after 15 minutes and keeps at most 20', () => {
    let now = 0;
    const drafts = new Drafts<number>(() => now);
    const first = drafts.put('g', 'u', 1);
    now += DRAFT_LIFETIME_MS;
    expect(drafts.get(first)).toBeUndefined();
    const ids = Array.from({ length: MAX_DRAFTS + 1 }, (_, i) => drafts.put('g', 'u', i));
    expect(drafts.get(ids[0] ?? '')).toBeUndefined();
    expect(drafts.take(ids[MAX_DRAFTS] ?? '')?.value).toBe(MAX_DRAFTS);
    expect(drafts.take(ids[MAX_DRAFTS] ?? '')).toBeUndefined();
  });
});

describe('createAttachmentDownloader', () => {
  const ref = { name: 'a.zip', url: 'https://cdn.example/a.zip', size: 4 };

  it('refuses an answer that is not 2xx, a body over the limit, and a fetch that fails', async () => {
    const answering = (response: () => Response) => createAttachmentDownloader(() => Promise.resolve(response()));
    await expect(answering(() => new Response('no', { status: 404 }))(ref, 100)).rejects.toThrow(
      'Could not fetch a.zip from Discord (HTTP 404): attach it again and retry.',
    );
    await expect(answering(() => new Response(new Uint8Array(10)))(ref, 5)).rejects.toThrow(
      "The file is larger than the service's upload limit of 5 bytes: nothing was sent.",
    );
    await expect(answering(() => new Response(null))({ ...ref, size: 0 }, 5)).resolves.toEqual(new Uint8Array());
    await expect(createAttachmentDownloader(() => Promise.reject(new Error('reset')))(ref, 5)).rejects.toThrow(
      'Could not fetch a.zip from Discord (reset)',
    );
  });
});

describe('the submission count', () => {
  it('takes places atomically, refuses the 11th, and gives one back', async () => {
    const records = await openAppDocuments('memory://');
    const results = await Promise.allSettled(Array.from({ length: 11 }, () => takeSubmissionSlot(records, 'g', 1000)));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(10);
    const refused = results.find((result) => result.status === 'rejected');
    expect(String((refused as PromiseRejectedResult).reason)).toMatch(/next one is possible <t:3601:R>/);
    await returnSubmissionSlot(records, 'g', 1000);
    await returnSubmissionSlot(records, 'g', 999);
    expect((await records.readGuild('g')).submissions).toHaveLength(9);
    await records.close();
  });
});

describe('building a submission', () => {
  it('prefills nothing without a version, and checks lists only when the options give them', () => {
    expect(prefillFromVersion(undefined)).toEqual({});
    const candidate = {
      name: 'A',
      tagline: 'B',
      description: 'd'.repeat(50),
      category: 'x',
      version: '1',
      whatsNew: 'w',
      repoUrl: 'https://github.com/a/b',
      data: ['none', 'tracking'],
      repoAccess: 'secret',
    };
    const none = {
      categories: undefined,
      dataKinds: undefined,
      ageRatings: undefined,
      repoAccess: undefined,
      maxUploadBytes: undefined,
    };
    expect(checkSubmission(candidate, none).ok).toBe(true);
    expect(checkSubmission(candidate, { ...none, dataKinds: ['none'], repoAccess: ['public'] })).toEqual({
      ok: false,
      problems: ['data: tracking is not one of none', 'repoAccess: secret is not one of public'],
    });
    expect(readNewAppDetails('{"category":"tools"}')).toEqual({ ok: true, fields: { category: 'tools' } });
  });
});

describe('SingleFlightCache', () => {
  it('shares one load', async () => {
    let loads = 0;
    const cache = new SingleFlightCache<number>(() => 0, 1000);
    const load = () => Promise.resolve((loads += 1));
    expect(await Promise.all([cache.get('k', load), cache.get('k', load)])).toEqual([1, 1]);
    expect(cache.peek('k')).toBe(1);
    cache.delete('k');
    expect(cache.peek('k')).toBeUndefined();
  });
});
