import { describe, expect, it } from 'vitest';

import { evidenceFileName, renderEvidenceHtml } from '../../../../src/features/record/evidence-html.js';
import type { CaseEvidence } from '../../../../src/features/record/store/case-evidence.js';
import { inspectHtml } from './inspect-html.js';

const MINUTE = 60_000;
const AT = Date.UTC(2026, 2, 28, 14, 30);
const MODERATOR = '500000000000000001';

/** A pack with every part filled, each text from the service hostile in its own way. */
function hostilePack(): CaseEvidence {
  return {
    case: {
      server: '4821337',
      number: 42,
      at: AT,
      type: 'ban"><img src=x onerror=alert(1)>',
      targetId: '9001',
      targetName: `Bob "The <Builder>" O'Neil`,
      moderatorId: MODERATOR,
      moderatorName: `Ann "Mod" D'Arc`,
      reason: 'griefing <script>alert(document.cookie)</script> & <a href="javascript:alert(2)">here</a>',
      createdAt: AT,
      voidedAt: AT + 60 * MINUTE,
      voidedBy: 'u"1<b>',
      evidence: JSON.stringify({
        clips: ['https://cdn.example.test/clip.mp4?a=1&b=2', 'javascript:alert(document.domain)'],
        note: 'seen "twice" <style>body{display:none}</style>',
        image: 'data:text/html,<script>alert(3)</script>',
        // An address with a quote in it: it stays one attribute's value.
        odd: 'https://cdn.example.test/x"onmouseover="alert(4)',
      }),
    },
    modcalls: [
      {
        at: AT - 10 * MINUTE,
        calls: 2,
        callerName: 'Bob <i>',
        claimedBy: MODERATOR,
        claimedAt: AT - 8 * MINUTE,
        resolvedBy: '500000000000000002',
        resolvedAt: AT - 1 * MINUTE,
      },
    ],
    moreModcalls: false,
    onShift: [
      {
        server: '4821337',
        shiftId: 1,
        memberId: MODERATOR,
        memberName: `Ann "Mod" D'Arc`,
        startedAt: AT - 120 * MINUTE,
        endedAt: null,
      },
      {
        server: '4821338',
        shiftId: 7,
        memberId: '500000000000000003',
        memberName: 'Cy </td></tr></table><script>alert(5)</script>',
        startedAt: AT - 30 * MINUTE,
        endedAt: AT + 30 * MINUTE,
      },
    ],
    moreOnShift: false,
    moderatorLastShift: undefined,
    session: {
      sessionId: 3,
      name: 'Evening <session>',
      startedById: MODERATOR,
      startedByName: `Ann "Mod" D'Arc`,
      startedAt: AT - 90 * MINUTE,
      endedAt: null,
      peakPlayers: 31,
    },
    earlierCases: [
      {
        server: '4821337',
        number: 17,
        at: AT - 3 * 86_400_000,
        type: 'warn',
        targetId: '9001',
        reason: 'spam <b>bold</b>',
      },
    ],
    earlierByType: [{ type: 'warn', count: 1 }],
  };
}

const CONTEXT = { guildId: '100000000000000001', guildName: 'Game "Community" <3', madeAt: AT + 2 * 86_400_000 };

describe('the evidence pack as an HTML file', () => {
  it('holds every value as text: no script, no handler, no request, a link only where an http(s) address was given', async () => {
    const html = renderEvidenceHtml(hostilePack(), CONTEXT);
    const page = await inspectHtml(html);

    expect(page.scripts).toBe(0);
    expect(page.handlers).toEqual([]);
    expect(page.requests).toEqual([]);
    // Every address in the file is a link the reader may follow, to exactly what its text shows.
    expect(page.addresses).toEqual([
      {
        element: 'a',
        attribute: 'href',
        value: 'https://cdn.example.test/clip.mp4?a=1&b=2',
        text: 'https://cdn.example.test/clip.mp4?a=1&b=2',
      },
      {
        element: 'a',
        attribute: 'href',
        value: 'https://cdn.example.test/x%22onmouseover=%22alert(4)',
        text: 'https://cdn.example.test/x"onmouseover="alert(4)',
      },
    ]);
    // What the service said is shown as it said it.
    for (const shown of [
      'griefing <script>alert(document.cookie)</script> & <a href="javascript:alert(2)">here</a>',
      'javascript:alert(document.domain)',
      'data:text/html,<script>alert(3)</script>',
      `Bob "The <Builder>" O'Neil (Roblox id 9001)`,
      `Ann "Mod" D'Arc (Discord id ${MODERATOR})`,
      'ban"><img src=x onerror=alert(1)>',
      'Cy </td></tr></table><script>alert(5)</script>',
      'Evening <session>',
      'spam <b>bold</b>',
      'Game "Community" <3',
      'Voided 2026-03-28 15:30:00 UTC by u"1<b>',
    ]) {
      expect(page.text).toContain(shown);
    }
  });

  it('has every part of the pack, each with what the record joined', async () => {
    const page = await inspectHtml(renderEvidenceHtml(hostilePack(), CONTEXT));
    expect(page.headings).toEqual([
      'The case',
      'Evidence',
      "The player's modcalls on game server 4821337 in the 15 minutes before",
      'On shift at 2026-03-28 14:30:00 UTC',
      'Session',
      'Earlier cases of the player',
    ]);
    for (const shown of [
      // The case and its void.
      'Made\n2026-03-28 14:30:00 UTC',
      'Voided 2026-03-28 15:30:00 UTC',
      // The evidence, each item where it was given, and all of it as given.
      'clips[0] https://cdn.example.test/clip.mp4?a=1&b=2',
      'clips[1] javascript:alert(document.domain) (not a web address: shown, not linked)',
      '"note": "seen \\"twice\\" <style>body{display:none}</style>",',
      // The modcall, who claimed it and when, who resolved it.
      `2026-03-28 14:20:00 UTC\t2\tby Discord id ${MODERATOR} (the moderator), 2026-03-28 14:22:00 UTC\t2026-03-28 14:29:00 UTC by Discord id 500000000000000002`,
      // The moderator's shift, and who else was on shift.
      'The moderator was on shift, since 2026-03-28 12:30:00 UTC (game server 4821337).',
      'Cy </td></tr></table><script>alert(5)</script> (Discord id 500000000000000003)\t4821338\t2026-03-28 14:00:00 UTC',
      // The session and its staffing.
      'Staff on shift on this game server at the case\n1',
      'Most players\n31',
      // The player's earlier cases.
      'Not voided: 1 warn.',
      '#17\twarn\t2026-03-25 14:30:00 UTC\tactive\t\nspam <b>bold</b>',
    ]) {
      expect(page.text).toContain(shown);
    }
  });

  it('names the file by the case, whatever the server id holds', () => {
    expect(evidenceFileName({ server: '4821337', number: 42 })).toBe('case-4821337-42-evidence.html');
    expect(evidenceFileName({ server: '../"x"/<y>', number: 7 })).toBe('case-xy-7-evidence.html');
  });
});
