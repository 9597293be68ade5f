import type { IdentifyRecord } from '../../fakes/discord/index.js';
import type { BotProcess } from '../../test/e2e/fleet.js';
import { formatNumber } from './stats.js';

/** What became of one shard of a killed process: who took it, when its client was ready, when it first answered. */
export interface MovedShard {
  shard: number;
  /** When a `/status` in its guild was first answered with the feed's status (epoch ms), if ever. */
  answeredAt?: number;
  /** `/status` commands sent in its guild after the kill, and how many of them no live session received. */
  sent: number;
  notDelivered: number;
}

/** The first line of `bot` after `since` (epoch ms, the log's `time`) with `msg` that `matches` accepts. */
function firstLine(
  bot: BotProcess,
  since: number,
  msg: string,
  matches: (line: Record<string, unknown>) => boolean,
): Record<string, unknown> | undefined {
  return bot.lines.find((line) => Number(line['time']) >= since && line['msg'] === msg && matches(line));
}

/**
 * One line per shard of the killed process, in ms after the kill (`killedAt`), from the survivors' own log lines and
 * the fake's record of identifies: which process took it (`took gateway shards`), when it identified (the session
 * live at the fake: interactions reach it from then on), when its client was ready there (`Discord gateway shard
 * ready`: every GUILD_CREATE handled) and when its guild's `/status` was first answered; then the commands that
 * reached no live session meanwhile.
 */
export function describeReshard(
  killedAt: number,
  moved: readonly MovedShard[],
  survivors: readonly BotProcess[],
  identifies: readonly IdentifyRecord[],
): string[] {
  const after = (time: unknown) => (typeof time === 'number' ? `+${formatNumber(time - killedAt)} ms` : 'never');
  return moved.map(({ shard, answeredAt, sent, notDelivered }) => {
    const takers = survivors
      .map((bot) => ({
        bot,
        took: firstLine(bot, killedAt, 'took gateway shards', (line) =>
          ((line['shards'] ?? []) as number[]).includes(shard),
        ),
      }))
      .filter((taker) => taker.took !== undefined);
    const taker = takers[0];
    const ready = taker
      ? firstLine(taker.bot, killedAt, 'Discord gateway shard ready', (line) => line['shard'] === shard)
      : undefined;
    const identified = identifies.find(
      (identify) => identify.time >= killedAt && Number((identify.shard as number[])[0]) === shard,
    );
    return (
      `shard ${shard}: taken by ${taker ? `${taker.bot.name} ${after(taker.took?.['time'])}` : 'no survivor'}` +
      `${takers.length > 1 ? ` (and by ${takers.length - 1} more: ${takers.map((t) => t.bot.name).join(', ')})` : ''}, ` +
      `identified ${after(identified?.time)}, ready there ${after(ready?.['time'])}, first answered ${after(answeredAt)}; ` +
      `${sent} /status sent, ${notDelivered} of them to no live session`
    );
  });
}
