import type { FakeMessage } from '../../../../fakes/discord/index.js';
import type { FeedHarness } from '../../../e2e/feed-harness.js';
import { SAMPLE_DELIVERIES } from '../../../fixtures/deliveries.js';

// What session-threads.test.ts sends and reads: the deliveries of session 77 on one game server, and the
// thread's messages as the fake Discord holds them.

/** The game server every delivery here comes from. */
const SERVER = '4821337';

/** The session's start at `base` (ms since the epoch), by `startedBy`. */
export function sessionStarted(base: number, startedBy = '284756102938475001') {
  const session = {
    id: 77,
    name: 'Evening patrol',
    message: 'Join us',
    startedBy: { discordId: startedBy, name: 'Mira' },
    startedAt: base,
    endedAt: null,
    endedBy: null,
    peakPlayers: 31,
  };
  return { id: 'sess-77-start', event: 'session.started', server: SERVER, at: base, data: { session } };
}

export function sessionEnded(endedAt: number) {
  return {
    id: 'sess-77-end',
    event: 'session.ended',
    server: SERVER,
    at: endedAt,
    data: { session: { id: 77, name: 'Evening patrol', endedAt }, stats: { joins: 54, cases: 2 } },
  };
}

export function shift(id: number, memberId: string, name: string, startedAt: number, endedAt: number | null) {
  const seconds = endedAt === null ? null : Math.round((endedAt - startedAt) / 1000);
  return {
    id: `shift-${id}-${endedAt === null ? 'on' : 'off'}`,
    event: endedAt === null ? 'shift.started' : 'shift.ended',
    server: SERVER,
    at: endedAt ?? startedAt,
    data: { shift: { id, discordId: memberId, name, robloxId: String(9000 + id), startedAt, endedAt, seconds } },
  };
}

export function caseCreated(number: number, type: string, at: number) {
  const sample = SAMPLE_DELIVERIES['case.created'];
  const made = { ...sample.data.case, number, type, createdAt: at, target: { robloxId: '2391045817', name: 'Speedy' } };
  return { id: `case-${number}`, event: 'case.created', server: SERVER, at, data: { case: made } };
}

export function modcall(at: number) {
  return {
    id: `call-${at}`,
    event: 'modcall',
    server: SERVER,
    at,
    data: { caller: { robloxId: '5550001', name: 'Lost_Player' }, at },
  };
}

/** The thread's messages once `check` holds for them (15 s at most). */
export function threadShowing(
  harness: FeedHarness,
  threadId: string,
  check: (messages: FakeMessage[]) => boolean,
  what: string,
): Promise<FakeMessage[]> {
  return harness.discord.waitFor(
    () => {
      const messages = harness.discord.messages(threadId);
      return check(messages) ? messages : false;
    },
    15_000,
    what,
  );
}

/** The messages the bot posted (not edited) to a channel or thread, answered 2xx. */
export function postsTo(harness: FeedHarness, channelId: string) {
  return harness.discord.requests.filter(
    (request) =>
      request.method === 'POST' && request.path === `/channels/${channelId}/messages` && (request.status ?? 0) < 300,
  );
}
