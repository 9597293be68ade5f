import { describe, expect, it } from 'vitest';

import { RoleKeeper, type RoleRefusal } from '../../../src/features/duty/role-keeper.js';
import type { DutySettings, RoleHolder } from '../../../src/features/duty/store/duty-store.js';
import type { OpenShift } from '../../../src/features/record/store/record-queries.js';
import { captureLogs } from '../../helpers/capture-logs.js';
import { ManualTime } from '../../helpers/manual-time.js';

const GUILD = '100000000000000001';
const ROLE = '200000000000000001';
const NOW = Date.UTC(2026, 10, 26, 12);
const HOUR = 3_600_000;

function shift(memberId: string, startedAt: number): OpenShift {
  return { server: 's', shiftId: Number(memberId.slice(-3)), memberId, memberName: memberId, startedAt };
}

/**
 * A keeper over a record whose open shifts and ended members the test sets, holders kept in memory, a REST that
 * records calls, and a grant check that refuses what `state.refusal` says.
 */
function keeperWith(open: OpenShift[], offShift: string[]) {
  const calls: string[] = [];
  const settings: DutySettings = {
    guildId: GUILD,
    boardChannelId: null,
    boardMessageId: null,
    roleId: ROLE,
    roleSetBy: null,
  };
  const holders = new Map<string, RoleHolder>();
  const reports: Array<RoleRefusal | null> = [];
  const state = { open, offShift, refusal: null as string | null };
  const keeper = new RoleKeeper({
    duty: {
      settingsOf: () => Promise.resolve(settings),
      listConfigured: () => Promise.resolve([settings]),
      roleHoldersOf: () => Promise.resolve([...holders.values()]),
      noteRoleHolder: (_guildId, holder) => {
        holders.set(`${holder.memberId}:${holder.roleId}`, holder);
        return Promise.resolve();
      },
      forgetRoleHolder: (_guildId, memberId, roleId) => {
        holders.delete(`${memberId}:${roleId}`);
        return Promise.resolve();
      },
    },
    refusalOf: () => Promise.resolve(state.refusal),
    report: (_guildId, refusal) => {
      reports.push(refusal);
      return Promise.resolve();
    },
    record: {
      openShifts: () => Promise.resolve(state.open),
      membersOffShift: () => Promise.resolve(state.offShift),
    },
    rest: {
      put: (route: string) => {
        calls.push(`PUT ${route}`);
        return Promise.resolve(undefined);
      },
      delete: (route: string) => {
        calls.push(`DELETE ${route}`);
        return Promise.resolve(undefined);
      },
    },
    timers: new ManualTime(),
    clock: () => NOW,
    logger: captureLogs().logger,
  });
  return { keeper, calls, state, holders, reports };
}

const route = (memberId: string) => `/guilds/${GUILD}/members/${memberId}/roles/${ROLE}`;

describe("the on-duty role's keeper", () => {
  it('at its first look (a restart) gives the members on shift the role and takes it from those whose shift ended', async () => {
    const stale = shift('300000000000000003', NOW - 17 * HOUR);
    const { keeper, calls } = keeperWith(
      [shift('300000000000000001', NOW - HOUR), stale],
      ['300000000000000002', '300000000000000001'],
    );
    await keeper.start();
    await keeper.idle();
    expect(calls.sort()).toEqual(
      [
        `DELETE ${route('300000000000000002')}`,
        `DELETE ${route('300000000000000003')}`,
        `PUT ${route('300000000000000001')}`,
      ].sort(),
    );
    await keeper.stop();
  });

  it('keeps the role of a member on a fresh shift whose older shift in another game server never ended', async () => {
    const member = '300000000000000001';
    const neverEnded = shift(member, NOW - 20 * HOUR);
    const fresh = { ...shift(member, NOW - HOUR), server: 's2' };
    const { keeper, calls, holders } = keeperWith([neverEnded, fresh], []);
    await keeper.start();
    await keeper.idle();
    expect(calls).toEqual([`PUT ${route(member)}`]);
    expect([...holders.keys()]).toEqual([`${member}:${ROLE}`]);
    await keeper.stop();
  });

  it('afterwards changes only what differs from what it did, however often it is told', async () => {
    const { keeper, calls, state } = keeperWith([shift('300000000000000001', NOW - HOUR)], []);
    await keeper.start();
    await keeper.idle();
    calls.length = 0;
    keeper.changed(GUILD);
    keeper.changed(GUILD);
    await keeper.idle();
    expect(calls).toEqual([]);

    state.open = [shift('300000000000000004', NOW - HOUR)];
    keeper.changed(GUILD);
    await keeper.idle();
    expect(calls).toEqual([`DELETE ${route('300000000000000001')}`, `PUT ${route('300000000000000004')}`]);
    await keeper.stop();
  });

  it('gives a refused role to nobody, takes it from whom it gave it, reports once, and gives it again once allowed', async () => {
    const { keeper, calls, state, holders, reports } = keeperWith([shift('300000000000000001', NOW - HOUR)], []);
    await keeper.start();
    await keeper.idle();
    expect([...holders.keys()]).toEqual([`300000000000000001:${ROLE}`]);
    calls.length = 0;

    state.refusal = 'it carries Administrator';
    state.open = [shift('300000000000000001', NOW - HOUR), shift('300000000000000002', NOW - HOUR)];
    keeper.changed(GUILD);
    await keeper.idle();
    keeper.changed(GUILD);
    await keeper.idle();
    expect(calls).toEqual([`DELETE ${route('300000000000000001')}`]);
    expect(holders.size).toBe(0);
    expect(reports).toEqual([null, { roleId: ROLE, reason: 'it carries Administrator' }]);

    calls.length = 0;
    state.refusal = null;
    keeper.changed(GUILD);
    await keeper.idle();
    expect(calls).toEqual([`PUT ${route('300000000000000001')}`, `PUT ${route('300000000000000002')}`]);
    expect(reports.at(-1)).toBeNull();
    await keeper.stop();
  });
});
