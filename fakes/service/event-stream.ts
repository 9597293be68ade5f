import type { EventOf, ServiceEvent } from '../../src/upstream/schemas.js';
import { createSeededRandom, type SeededRandom } from './seeded-random.js';
import {
  BAN_REASONS,
  KICK_REASONS,
  PLAYER_NAMES,
  SESSION_MESSAGES,
  SESSION_NAMES,
  STAFF_NAMES,
  WARN_REASONS,
} from './story-cast.js';

export interface EventStreamOptions {
  /** Same seed, same stream. Default 1. */
  seed?: number;
  /**
   * When the session starts (ms since the epoch). Default 2024-05-17 23:10 UTC, so the longest shift spans
   * midnight UTC as well as lasting over an hour.
   */
  startAt?: number;
  /** The game server's id (digits). Default derived from the seed. */
  serverId?: string;
}

/** 2024-05-17T23:10:00Z. */
const DEFAULT_START = Date.UTC(2024, 4, 17, 23, 10);
const MINUTE = 60_000;

interface Person {
  discordId: string;
  robloxId: string;
  name: string;
}

/**
 * One session of a game server as the service would deliver it (upstream-api.md §2.5, §6), in time order:
 * session.started; 2–3 shift.started; case.created warn (no evidence), kick (URL evidence), a modcall, ban
 * (object evidence); case.voided of the warn; shift.ended for every shift (the first one over an hour);
 * session.ended with stats. Every item is a full delivery envelope that parses with `ServiceEventSchema`.
 */
export function generateEventStream(options: EventStreamOptions = {}): ServiceEvent[] {
  const seed = options.seed ?? 1;
  const random = createSeededRandom(seed);
  const serverId = options.serverId ?? random.digits(10);
  let now = options.startAt ?? DEFAULT_START;
  /** Moves the story's clock on by a few minutes; every event happens strictly after the previous one. */
  const wait = (minMinutes: number, maxMinutes: number) =>
    (now += random.int(minMinutes * MINUTE, maxMinutes * MINUTE) + 1);
  const envelope = <E extends ServiceEvent>(event: E['event'], data: E['data']) =>
    ({ id: `dlv_${random.hex(24)}`, event, server: serverId, at: now, data }) as E;

  const staff = random.sample(STAFF_NAMES, random.int(2, 3)).map((name) => makePerson(random, name));
  const players = random.sample(PLAYER_NAMES, 4).map((name) => makePerson(random, name));
  const [lead, second] = staff;
  const [warned, kicked, banned, caller] = players;
  if (!lead || !second || !warned || !kicked || !banned || !caller) throw new Error('the cast is too small');
  const closer = staff.at(-1) ?? lead;

  const session = { id: random.int(1000, 9999), name: random.pick(SESSION_NAMES) };
  const events: ServiceEvent[] = [];
  events.push(
    envelope<EventOf<'session.started'>>('session.started', {
      session: {
        ...session,
        message: random.pick(SESSION_MESSAGES),
        startedBy: { discordId: lead.discordId, name: lead.name },
        startedAt: now,
        endedAt: null,
        endedBy: null,
        peakPlayers: random.int(4, 12),
      },
    }),
  );

  let shiftId = random.int(300, 900);
  const shifts = staff.map((person) => {
    wait(1, 3);
    const shift = {
      id: shiftId++,
      discordId: person.discordId,
      name: person.name,
      robloxId: person.robloxId,
      startedAt: now,
    };
    events.push(
      envelope<EventOf<'shift.started'>>('shift.started', { shift: { ...shift, endedAt: null, seconds: null } }),
    );
    return shift;
  });

  let caseNumber = random.int(120, 480);
  const makeCase = (type: string, target: Person, moderator: Person, reason: string, evidence: unknown) => {
    wait(8, 15);
    const created = {
      number: caseNumber++,
      type,
      status: 'active',
      target: { robloxId: target.robloxId, name: target.name },
      moderator: { discordId: moderator.discordId, name: moderator.name },
      reason,
      evidence,
      inGame: random.next() < 0.7,
      createdAt: now,
      voidedAt: null,
      voidedBy: null,
    };
    events.push(envelope<EventOf<'case.created'>>('case.created', { case: created }));
    return created;
  };

  const warn = makeCase('warn', warned, lead, random.pick(WARN_REASONS), null);
  makeCase('kick', kicked, second, random.pick(KICK_REASONS), `https://medal.tv/games/roblox/clips/${random.hex(10)}`);

  wait(3, 8);
  events.push(
    envelope<EventOf<'modcall'>>('modcall', { caller: { robloxId: caller.robloxId, name: caller.name }, at: now }),
  );

  makeCase('ban', banned, closer, random.pick(BAN_REASONS), {
    clips: [`https://streamable.com/${random.hex(6)}`, `https://youtu.be/${random.hex(11)}`],
    reportedBy: caller.name,
    chatLog: true,
  });

  wait(5, 10);
  const { number, type, target, reason } = warn;
  events.push(
    envelope<EventOf<'case.voided'>>('case.voided', {
      case: { number, type, status: 'voided', target, reason, voidedAt: now, voidedBy: second.discordId },
    }),
  );

  // Clock-outs in reverse order: the lead, who clocked in first, leaves last with the longest shift: the waits
  // above add up to more than an hour whatever the seed.
  wait(15, 25);
  for (const shift of [...shifts].reverse()) {
    wait(8, 14);
    const seconds = Math.round((now - shift.startedAt) / 1000);
    events.push(envelope<EventOf<'shift.ended'>>('shift.ended', { shift: { ...shift, endedAt: now, seconds } }));
  }

  wait(2, 5);
  events.push(
    envelope<EventOf<'session.ended'>>('session.ended', {
      session: { ...session, endedAt: now },
      stats: { joins: random.int(18, 64), cases: 3 },
    }),
  );
  return events;
}

function makePerson(random: SeededRandom, name: string): Person {
  return { discordId: random.digits(18), robloxId: random.digits(random.int(8, 10)), name };
}
