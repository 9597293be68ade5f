// The shift events the /duty tests deliver, as the service sends them.

const SERVER = 'srv_duty';

/** A member of staff as the service names them: a Discord id (a snowflake) and a name. */
export function staff(n: number) {
  return { discordId: String(284756102938475000n + BigInt(n)), name: `Staff_${n}` };
}

/** A shift.started of shift `id`, by staff member `n`, begun `minutesAgo` minutes before now. */
export function started(id: number, n: number, minutesAgo = 1) {
  const startedAt = Date.now() - minutesAgo * 60_000;
  const { discordId, name } = staff(n);
  return {
    event: 'shift.started' as const,
    server: SERVER,
    data: { shift: { id, discordId, name, robloxId: String(9000 + n), startedAt, endedAt: null, seconds: null } },
  };
}

/** The shift.ended of shift `id`, begun `minutesAgo` minutes before now and ended now. */
export function ended(id: number, n: number, minutesAgo = 1) {
  const startedAt = Date.now() - minutesAgo * 60_000;
  const endedAt = Date.now();
  const { discordId, name } = staff(n);
  const seconds = Math.round((endedAt - startedAt) / 1000);
  return {
    event: 'shift.ended' as const,
    server: SERVER,
    data: { shift: { id, discordId, name, robloxId: String(9000 + n), startedAt, endedAt, seconds } },
  };
}

/** A shift of a member of the fake guild (the role goes to real members only), begun 5 minutes ago. */
export function shiftOf(kind: 'started' | 'ended', id: number, memberId: string) {
  const event = kind === 'started' ? started(id, 1, 5) : ended(id, 1, 5);
  return { ...event, data: { shift: { ...event.data.shift, discordId: memberId, name: `member ${memberId}` } } };
}
