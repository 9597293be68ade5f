import { describe, expect, it } from 'vitest';

import type { MessageEdit, OutgoingMessage, Poster } from '../../../src/discord/posting/poster.js';
import { SendError } from '../../../src/discord/posting/send-failure.js';
import { BoardUpdater, MIN_EDIT_GAP_MS } from '../../../src/features/duty/board-updater.js';
import type { DutySettings } from '../../../src/features/duty/store/duty-store.js';
import type { OpenShift } from '../../../src/features/record/store/record-queries.js';
import { captureLogs } from '../../helpers/capture-logs.js';
import { ManualTime } from '../../helpers/manual-time.js';

const GUILD = '100000000000000001';
const CHANNEL = '300000000000000001';

/** Lets the work a timer started (a few store reads and a send) finish. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 2));

/** An updater over a store and record held in memory, and a poster that records what it was asked. */
function updaterWith(options: { failEdits?: number } = {}) {
  const time = new ManualTime();
  const logs = captureLogs();
  const settings: DutySettings = {
    guildId: GUILD,
    boardChannelId: CHANNEL,
    boardMessageId: null,
    roleId: null,
    roleSetBy: null,
  };
  const shifts: OpenShift[] = [];
  const sent: Array<{ kind: 'post' | 'edit'; at: number; count: string | undefined; nonce?: string }> = [];
  const gone = new Set<string>();
  let failEdits = options.failEdits ?? 0;
  let nextId = 700;
  let askedAt: number | undefined;
  const poster: Poster = {
    post(_channelId: string, body: OutgoingMessage, nonce: string) {
      sent.push({ kind: 'post', at: time.now(), count: body.embeds[0]?.title, nonce });
      nextId += 1;
      return Promise.resolve(String(nextId));
    },
    edit(_channelId: string, messageId: string, body: MessageEdit) {
      if (gone.has(messageId)) return Promise.resolve('gone' as const);
      if (failEdits > 0) {
        failEdits -= 1;
        return Promise.reject(new SendError({ kind: 'retry', reason: 'Discord 503: Service Unavailable' }));
      }
      sent.push({ kind: 'edit', at: time.now(), count: body.embeds[0]?.title });
      return Promise.resolve('edited' as const);
    },
  };
  const updater = new BoardUpdater({
    duty: {
      settingsOf: () => Promise.resolve({ ...settings }),
      listConfigured: () => Promise.resolve([{ ...settings }]),
      setBoardMessage: (_guildId, channelId, messageId) => {
        settings.boardMessageId = channelId === settings.boardChannelId ? messageId : settings.boardMessageId;
        askedAt = undefined;
        return Promise.resolve(true);
      },
      askBoardPost: (_guildId, channelId, now) => {
        if (channelId !== settings.boardChannelId) return Promise.resolve(undefined);
        askedAt ??= now;
        return Promise.resolve(askedAt);
      },
    },
    record: { openShifts: () => Promise.resolve([...shifts]) },
    poster,
    timers: time,
    clock: time.now,
    logger: logs.logger,
  });
  const start = (n: number) =>
    shifts.push({
      server: 's',
      shiftId: n,
      memberId: String(200000000000000000n + BigInt(n)),
      memberName: `m${n}`,
      startedAt: time.now(),
    });
  return { time, logs, settings, shifts, sent, gone, updater, start };
}

describe('the on-duty board updater', () => {
  it('posts the board, then coalesces changes into at most one edit per gap, the last showing the last state', async () => {
    const t = updaterWith();
    await t.updater.start();
    await t.time.advance(0, settle);
    expect(t.sent).toEqual([
      { kind: 'post', at: t.time.now(), count: 'On duty now: 0', nonce: expect.any(String) as string },
    ]);
    const postedAt = t.time.now();
    // 30 changes within the next 3 s: a change every 100 ms.
    for (let n = 1; n <= 30; n += 1) {
      t.start(n);
      t.updater.changed(GUILD);
      await t.time.advance(100, settle);
    }
    await t.time.advance(5_000, settle);
    const edits = t.sent.filter((send) => send.kind === 'edit');
    expect(edits.at(-1)?.count).toBe('On duty now: 30');
    expect(edits.length).toBeLessThanOrEqual(Math.ceil(3_000 / MIN_EDIT_GAP_MS) + 1);
    const times = [postedAt, ...edits.map((edit) => edit.at)];
    for (let i = 1; i < times.length; i += 1) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(MIN_EDIT_GAP_MS);
    await t.updater.stop();
  });

  it('posts the board anew when its message was deleted, and edits the new one after', async () => {
    const t = updaterWith();
    await t.updater.start();
    await t.time.advance(0, settle);
    const first = t.settings.boardMessageId ?? '';
    t.gone.add(first);
    t.start(1);
    t.updater.changed(GUILD);
    await t.time.advance(2_000, settle);
    expect(t.settings.boardMessageId).not.toBe(first);
    expect(t.sent.map((send) => send.kind)).toEqual(['post', 'post']);
    expect(t.sent[1]?.nonce).not.toBe(t.sent[0]?.nonce);
    t.start(2);
    t.updater.changed(GUILD);
    await t.time.advance(2_000, settle);
    expect(t.sent.map((send) => [send.kind, send.count])).toEqual([
      ['post', 'On duty now: 0'],
      ['post', 'On duty now: 1'],
      ['edit', 'On duty now: 2'],
    ]);
    await t.updater.stop();
  });

  it('edits nothing when the board already shows the state (a refresh of a quiet board)', async () => {
    const t = updaterWith();
    await t.updater.start();
    await t.time.advance(0, settle);
    t.start(1);
    t.updater.changed(GUILD);
    await t.time.advance(2_000, settle);
    t.updater.changed(GUILD);
    await t.time.advance(10 * 60 * 1000 + 2_000, settle);
    expect(t.sent.map((send) => send.kind)).toEqual(['post', 'edit']);
    await t.updater.stop();
  });

  it('logs an edit Discord fails and tries again later, showing the state at that time', async () => {
    const t = updaterWith({ failEdits: 1 });
    await t.updater.start();
    await t.time.advance(0, settle);
    t.start(1);
    t.updater.changed(GUILD);
    await t.time.advance(2_000, settle);
    expect(t.logs.text()).toContain('the on-duty board could not be updated; tried again later');
    expect(t.logs.text()).toContain('Discord 503');
    t.start(2);
    await t.time.advance(30_000, settle);
    expect(t.sent.at(-1)).toMatchObject({ kind: 'edit', count: 'On duty now: 2' });
    await t.updater.stop();
  });
});
