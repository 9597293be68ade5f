import { describe, expect, it } from 'vitest';

import { emptyAppGuild, type AppGuild, type Card } from '../../../src/features/releases/app-documents.js';
import { describeApp, describeAppLine } from '../../../src/features/releases/describe-apps.js';
import { describeReleaseStatus } from '../../../src/features/releases/describe-releases.js';
import type { AppDetail } from '../../../src/upstream/developer-schemas.js';

const T = Date.UTC(2026, 10, 20, 12, 0, 0);
const watch = { appId: '1', appName: 'A', channelId: '10', roleId: '7', createdAt: T, createdBy: '2', baseline: [] };

describe('describeAppLine', () => {
  it('names the waiting version, else the latest, and where cards go', () => {
    const base = { id: '1', name: 'A', fingerprint: '' };
    expect(
      describeAppLine(
        { ...base, pending: { label: '2', state: undefined, since: undefined }, latest: undefined },
        undefined,
      ),
    ).toBe('• **A** (app 1) · waiting for review: 2 (no state given)');
    expect(describeAppLine({ ...base, pending: undefined, latest: { label: '1', state: 'live' } }, watch)).toBe(
      '• **A** (app 1) · latest 1 `` live `` · cards in <#10>',
    );
    expect(describeAppLine({ ...base, pending: undefined, latest: undefined }, undefined)).toBe('• **A** (app 1)');
  });
});

describe('describeApp', () => {
  it('takes a time the service does not give from the card, and lists at most 15 versions', () => {
    const versions = Array.from({ length: 17 }, (_, i) => ({
      label: `v${i}`,
      state: 'approved',
      stateSince: undefined,
      submittedAt: undefined,
      pending: false,
      raw: {},
    }));
    const detail: AppDetail = { id: '1', name: 'A', pending: undefined, latest: undefined, fingerprint: '', versions };
    const card = { stateSince: T } as Card;
    const lines = describeApp(detail, { v16: card }, watch);
    expect(lines[1]).toBe('Waiting for review: nothing.');
    expect(lines[3]).toBe(`• v16 · \`\` approved \`\` since <t:${T / 1000}:R>`);
    expect(lines[4]).toBe('• v15 · `` approved ``');
    expect(lines.at(-2)).toBe('… and 2 older.');
    expect(lines.at(-1)).toBe('Release cards go to <#10>, outcomes ping <@&7>.');
    expect(describeApp(detail, {}, { ...watch, roleId: null }).at(-1)).toBe('Release cards go to <#10>.');
  });
});

describe('describeReleaseStatus', () => {
  const guild = (change: Partial<AppGuild>): AppGuild => ({ ...emptyAppGuild('g'), ...change });

  it('says what is missing, first the key, then a watch', () => {
    expect(describeReleaseStatus(guild({}), true)).toEqual([
      'Developer key: not set (run /app key).',
      'Release cards: no app watched (run /app watch).',
    ]);
    expect(describeReleaseStatus(guild({ developerKey: 'x', accountName: 'Studio' }), false)[0]).toBe(
      'Developer key: set for Studio.',
    );
    expect(describeReleaseStatus(guild({ developerKey: 'x' }), true)[0]).toBe('Developer key: set, stored encrypted.');
  });

  it('shows the last good poll, or none yet, and a run of failures without an alert', () => {
    const watched = { developerKey: 'x', watches: { '1': watch } };
    expect(describeReleaseStatus(guild(watched), true)[1]).toBe('Release cards: 1 app(s) watched; no good poll yet.');
    const failing = guild({
      ...watched,
      poll: { lastGoodAt: T, failures: 2, lastProblem: null, alertedAt: null },
    });
    expect(describeReleaseStatus(failing, true).slice(1)).toEqual([
      `Release cards: 1 app(s) watched; last good poll <t:${T / 1000}:R>.`,
      'Release poller: 2 failed poll(s) in a row, last: unknown.',
    ]);
    expect(
      describeReleaseStatus(guild({ ...watched, keyRefusal: { status: 401, at: T, noticePosted: true } }), true)[0],
    ).toBe(`Developer key: refused by the service <t:${T / 1000}:R>, replaced or revoked (401): run /app key.`);
  });
});
