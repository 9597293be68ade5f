import { ServiceEventSchema, type EventName, type EventOf } from '../../../src/upstream/schemas.js';

/** 2024-03-09 21:14:05 UTC, a Saturday evening game night. */
export const AT = 1_710_018_845_000;
export const AT_SECONDS = AT / 1000;
export const SERVER = '4821937561';
export const MODERATOR_ID = '284102957381632001';
export const STAFF_ID = '512938475610293847';
export const ROLE_ID = '998877665544332211';

const MINUTE = 60_000;

type EventData = { [N in EventName]: EventOf<N>['data'] };

/** Realistic data for each event, as the service would send it (upstream-api.md §6). */
const DATA: EventData = {
  'case.created': {
    case: {
      number: 1287,
      type: 'warn',
      status: 'active',
      target: { robloxId: '1843920571', name: 'xX_Speedy_Xx' },
      moderator: { discordId: MODERATOR_ID, name: 'Maple' },
      reason: 'RDM in the spawn zone after a verbal warning',
      evidence: null,
      inGame: true,
      createdAt: AT,
      voidedAt: null,
      voidedBy: null,
    },
  },
  'case.voided': {
    case: {
      number: 1287,
      type: 'warn',
      status: 'voided',
      target: { robloxId: '1843920571', name: 'xX_Speedy_Xx' },
      reason: 'RDM in the spawn zone after a verbal warning',
      voidedAt: AT,
      voidedBy: STAFF_ID,
    },
  },
  'session.started': {
    session: {
      id: 4410,
      name: 'Saturday Night Patrol',
      message: 'Server is up! Join via the group page.',
      startedBy: { discordId: MODERATOR_ID, name: 'Maple' },
      startedAt: AT,
      endedAt: null,
      endedBy: null,
      peakPlayers: 0,
    },
  },
  'session.ended': {
    session: { id: 4410, name: 'Saturday Night Patrol', endedAt: AT },
    stats: { joins: 57, cases: 4 },
  },
  modcall: {
    caller: { robloxId: '77120394', name: 'builderman_fan' },
    at: AT,
  },
  'shift.started': {
    shift: {
      id: 9031,
      discordId: STAFF_ID,
      name: 'Juniper',
      robloxId: '90817263',
      startedAt: AT,
      endedAt: null,
      seconds: null,
    },
  },
  'shift.ended': {
    shift: {
      id: 9031,
      discordId: STAFF_ID,
      name: 'Juniper',
      robloxId: '90817263',
      startedAt: AT - 125 * MINUTE,
      endedAt: AT,
      seconds: 125 * 60,
    },
  },
};

/**
 * A delivery of event `name` with realistic data, parsed by the real schema (so a fixture that drifts from
 * the schema fails loudly). `data` replaces the default data wholesale when given.
 */
export function makeEvent<N extends EventName>(name: N, data?: EventData[N]): EventOf<N> {
  const raw = { id: `dlv_${name.replace('.', '_')}_01`, event: name, server: SERVER, at: AT, data: data ?? DATA[name] };
  return ServiceEventSchema.parse(raw) as EventOf<N>;
}

/** The default data of `name`, deep-copied so a test may change it. */
export function dataOf<N extends EventName>(name: N): EventData[N] {
  return structuredClone(DATA[name]);
}
