import { describe, expect, it } from 'vitest';

import { assertValidCreateMessage } from '../../../fakes/discord/request-validator.js';
import { embedLength, MAX_MESSAGE_EMBED_CHARS } from '../../../src/embeds/limits.js';
import { renderBoard, SHIFT_NEVER_ENDED_AFTER_MS } from '../../../src/features/duty/board-render.js';
import type { OpenShift } from '../../../src/features/record/store/record-queries.js';

const NOW = Date.UTC(2026, 10, 26, 12);
const HOUR = 3_600_000;

function shift(n: number, startedAt: number, name: string | null = `Staff ${n}`): OpenShift {
  return { server: 's1', shiftId: n, memberId: String(284756102938475000n + BigInt(n)), memberName: name, startedAt };
}

describe('the on-duty board', () => {
  it('lists the staff on shift longest first, with a mention, the name and since when', () => {
    const body = renderBoard([shift(2, NOW - HOUR), shift(1, NOW - 2 * HOUR, 'Mira_*x*')], NOW);
    const [embed] = body.embeds;
    expect(embed?.title).toBe('On duty now: 2');
    const start = Math.floor((NOW - 2 * HOUR) / 1000);
    expect(embed?.description?.split('\n')).toEqual([
      `<@284756102938475001> Mira\\_\\*x\\* · since <t:${start}:t> (<t:${start}:R>)`,
      `<@284756102938475002> Staff 2 · since <t:${start + 3600}:t> (<t:${start + 3600}:R>)`,
    ]);
    expect(embed?.fields).toBeUndefined();
    expect(body.allowed_mentions).toEqual({ parse: [] });
  });

  it('says so when nobody is on shift', () => {
    expect(renderBoard([], NOW).embeds[0]).toMatchObject({
      title: 'On duty now: 0',
      description: 'Nobody is on shift.',
    });
  });

  it('shows a shift open longer than the limit apart, as never ended, and a member once', () => {
    const stale = shift(1, NOW - SHIFT_NEVER_ENDED_AFTER_MS - 1);
    const justInside = shift(2, NOW - SHIFT_NEVER_ENDED_AFTER_MS);
    const twice = { ...shift(2, NOW - HOUR), server: 's2', shiftId: 9 };
    const [embed] = renderBoard([stale, twice, justInside], NOW).embeds;
    expect(embed?.title).toBe('On duty now: 1');
    expect(embed?.description).toContain('<@284756102938475002>');
    expect(embed?.description?.split('\n')).toHaveLength(1);
    expect(embed?.fields).toEqual([
      {
        name: 'Shift never ended (open over 16 h): 1',
        value: expect.stringContaining('<@284756102938475001>') as string,
      },
    ]);
  });

  it('shows a member with an old never-ended shift and a fresh one on duty, since the fresh one, and not apart', () => {
    const stale = shift(1, NOW - SHIFT_NEVER_ENDED_AFTER_MS - HOUR);
    const fresh = { ...shift(1, NOW - HOUR), server: 's2', shiftId: 7 };
    const [embed] = renderBoard([stale, fresh], NOW).embeds;
    const since = Math.floor((NOW - HOUR) / 1000);
    expect(embed?.title).toBe('On duty now: 1');
    expect(embed?.description).toBe(`<@284756102938475001> Staff 1 · since <t:${since}:t> (<t:${since}:R>)`);
    expect(embed?.fields).toBeUndefined();
  });

  it('stays within Discord’s embed limits with many staff, the rest counted as "and N more"', () => {
    const many = Array.from({ length: 500 }, (_, i) => shift(i + 1, NOW - (i + 1) * 60_000, 'N'.repeat(64)));
    const stale = Array.from({ length: 300 }, (_, i) =>
      shift(1000 + i, NOW - SHIFT_NEVER_ENDED_AFTER_MS - (i + 1) * 60_000, 'S'.repeat(64)),
    );
    const body = renderBoard([...many, ...stale], NOW);
    const [embed] = body.embeds;
    if (!embed) throw new Error('no embed');
    expect(embed.title).toBe('On duty now: 500');
    const lines = embed.description?.split('\n') ?? [];
    const shown = lines.length - 1;
    expect(lines.at(-1)).toBe(`… and ${500 - shown} more`);
    expect(embed.description?.length).toBeLessThanOrEqual(4096);
    const field = embed.fields?.[0];
    expect(field?.value.length).toBeLessThanOrEqual(1024);
    expect(field?.value.split('\n').at(-1)).toMatch(/^… and \d+ more$/);
    expect(embedLength(embed)).toBeLessThanOrEqual(MAX_MESSAGE_EMBED_CHARS);
    expect(() => assertValidCreateMessage(body)).not.toThrow();
  });
});
