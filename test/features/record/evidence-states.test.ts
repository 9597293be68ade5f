import { describe, expect, it } from 'vitest';

import { renderEvidenceHtml } from '../../../src/features/record/evidence-html.js';
import { readEvidenceShareArgs, renderEvidencePack } from '../../../src/features/record/evidence-pack.js';
import type { CaseEvidence } from '../../../src/features/record/store/case-evidence.js';

const MINUTE = 60_000;
const AT = Date.UTC(2026, 2, 28, 14, 30);
const MODERATOR = '500000000000000001';
const CONTEXT = { guildId: '100000000000000001', guildName: 'Game', madeAt: AT + 86_400_000 };

/** A case the record knows only from its void: nothing else told, nothing around it. */
function voidOnly(): CaseEvidence {
  return {
    case: { server: '4821337', number: 7, at: AT, voidedAt: AT },
    modcalls: [],
    moreModcalls: false,
    onShift: [],
    moreOnShift: false,
    moderatorLastShift: undefined,
    session: undefined,
    earlierCases: [],
    earlierByType: [],
  };
}

/** A case with a player and a moderator who was off shift, calls unclaimed and claimed, an ended session. */
function offShift(): CaseEvidence {
  return {
    case: {
      server: '4821337',
      number: 8,
      at: AT,
      createdAt: AT,
      type: 'kick',
      targetId: '9001',
      targetName: 'Bob',
      moderatorId: MODERATOR,
      evidence: 'plain words, then https://cdn.example.test/clip.mp4',
    },
    modcalls: [
      {
        at: AT - 9 * MINUTE,
        calls: 1,
        callerName: null,
        claimedBy: null,
        claimedAt: null,
        resolvedBy: null,
        resolvedAt: null,
      },
      {
        at: AT - 5 * MINUTE,
        calls: 3,
        callerName: 'Bob',
        claimedBy: '500000000000000009',
        claimedAt: null,
        resolvedBy: null,
        resolvedAt: null,
      },
    ],
    moreModcalls: true,
    onShift: [
      { server: '4821338', shiftId: 2, memberId: null, memberName: null, startedAt: AT - 20 * MINUTE, endedAt: null },
    ],
    moreOnShift: true,
    moderatorLastShift: {
      server: '4821337',
      shiftId: 1,
      memberId: MODERATOR,
      memberName: 'Ann',
      startedAt: AT - 300 * MINUTE,
      endedAt: AT - 200 * MINUTE,
    },
    session: {
      sessionId: 4,
      name: null,
      startedById: null,
      startedByName: null,
      startedAt: AT - 60 * MINUTE,
      endedAt: AT + 60 * MINUTE,
      peakPlayers: null,
    },
    earlierCases: [
      { server: '4821337', number: 3, at: AT - 86_400_000, type: 'warn', targetId: '9001', voidedAt: AT - 3_600_000 },
    ],
    earlierByType: [],
  };
}

const texts = (evidence: CaseEvidence) =>
  renderEvidencePack(evidence, false)
    .embeds.flatMap((embed) => [
      embed.title ?? '',
      embed.description ?? '',
      ...(embed.fields ?? []).map((f) => `${f.name}: ${f.value}`),
    ])
    .join('\n');

describe('the evidence pack of a case the record knows little about', () => {
  it('says what is not told, in the embeds and the file, rather than showing nothing', () => {
    const shown = texts(voidOnly());
    expect(shown).toContain('Case #7 · case · server 4821337');
    expect(shown).toContain('No reason told.');
    expect(shown).toContain('None given.');
    expect(shown).toContain('The player is not told: their calls cannot be found.');
    expect(shown).toContain('The moderator: not told.');
    expect(shown).toContain('Nobody else was on shift.');
    expect(shown).toContain('No session was running on this server.');
    expect(shown).toContain('None: the first case of this player in the record.');
    expect(renderEvidencePack(voidOnly(), false).components ?? []).toEqual([]);

    const html = renderEvidenceHtml(voidOnly(), CONTEXT);
    expect(html).toContain('not told yet (only its void reached the record)');
    expect(html).toContain('<p>None given.</p>');
    expect(html).toContain('<p>The player is not told: their calls cannot be found.</p>');
    expect(html).toContain('<p>No session was running on this game server.</p>');
    expect(html).toContain('<p>None: the first case of this player in the record.</p>');
  });

  it('shows a moderator off shift with their last shift, unclaimed calls, an ended session and more than it lists', () => {
    const shown = texts(offShift());
    expect(shown).toContain('The moderator: **not on shift**; last shift began');
    expect(shown).toContain('not claimed');
    expect(shown).toContain('(3 calls): claimed by <@500000000000000009>');
    expect(shown).toContain('… and more');
    expect(shown).toContain('Also on shift (1+):');
    expect(shown).toMatch(/\*\*Session 4\*\*, begun <t:\d+:f>/);
    expect(shown).toMatch(/Ended <t:\d+:f>\./);
    expect(shown).toContain('All voided.');
    expect(shown).toContain('https://cdn.example.test/clip.mp4');
    expect(shown).toContain('Active: never voided.');

    const html = renderEvidenceHtml(offShift(), CONTEXT);
    expect(html).toContain('<h2>Session</h2>');
    expect(html).not.toContain('still running, as far as the record was told');
    expect(html).toContain('Active: never voided');
    expect(html).toContain('Not voided: none.');
    expect(html).toContain('href="https://cdn.example.test/clip.mp4"');
  });

  it('shows a moderator on shift, a running session, calls claimed and resolved, evidence with no text or cut', () => {
    const pack = offShift();
    delete pack.case.voidedBy;
    pack.onShift = [
      {
        server: '4821337',
        shiftId: 9,
        memberId: MODERATOR,
        memberName: 'Ann',
        startedAt: AT - 30 * MINUTE,
        endedAt: null,
      },
    ];
    pack.moreOnShift = false;
    pack.modcalls = [
      {
        at: AT - 4 * MINUTE,
        calls: 1,
        callerName: 'Bob',
        claimedBy: MODERATOR,
        claimedAt: AT - 3 * MINUTE,
        resolvedBy: MODERATOR,
        resolvedAt: AT - 2 * MINUTE,
      },
    ];
    pack.moreModcalls = false;
    pack.session = {
      sessionId: 5,
      name: 'Evening',
      startedById: MODERATOR,
      startedByName: 'Ann',
      startedAt: AT - 60 * MINUTE,
      endedAt: null,
      peakPlayers: 31,
    };
    pack.earlierCases = [
      { server: '4821337', number: 2, at: AT - 86_400_000, type: 'warn', targetId: '9001', reason: 'spam' },
    ];
    pack.earlierByType = [{ type: 'warn', count: 1 }];
    pack.case.evidence = JSON.stringify({ clips: [] });
    const shown = texts(pack);
    expect(shown).toContain('The moderator: **on shift** since');
    expect(shown).toContain('(the moderator)');
    expect(shown).toMatch(/, resolved <t:\d+:T>/);
    expect(shown).toContain('Still running, as far as the record was told.');
    expect(shown).toContain('Most players: 31.');
    expect(shown).toContain('Not voided: ');
    expect(shown).toContain(': spam');
    const html = renderEvidenceHtml(pack, CONTEXT);
    expect(html).toContain('<p>No text in it.</p>');
    expect(html).toContain('still running, as far as the record was told');
    expect(html).toContain('Not voided: 1 warn.');
    expect(html).toContain('<div class="text">spam</div>');

    pack.case.evidence = `{"clip":"https://cdn.example.test/a.mp4" ${'x'.repeat(50)}`;
    const cut = renderEvidenceHtml(pack, CONTEXT);
    expect(cut).toContain('The record keeps the first 16,000 characters');
    expect(texts(pack)).toContain('https://cdn.example.test/a.mp4');
  });

  it('offers Share only when the reader may share, and reads back only the ids it made', () => {
    const [row] = renderEvidencePack(offShift(), true).components ?? [];
    const button = row?.components[0];
    const id = button && 'custom_id' in button ? button.custom_id : '';
    expect(readEvidenceShareArgs(id.slice(id.indexOf(':') + 1).replace(/^[^:]*:/, ''))).toBeDefined();
    expect(readEvidenceShareArgs('not-a-case')).toBeUndefined();
  });
});
