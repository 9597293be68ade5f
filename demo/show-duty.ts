import { chatInputCommand, commandOption, type FakeDiscord } from '../fakes/discord/index.js';
import type { Digests } from '../src/features/digest/store/digests.js';
import { WEEKDAYS } from '../src/features/digest/weekly-schedule.js';

/**
 * The demo admin turns on the live duty views once the record answers: `/duty board` and `/digest set` in the
 * staff room. The digest would wait for its hour; the demo moves that hour to now (as the store keeps it), so the
 * week's digest, with its chart, is posted at once. Once.
 */
export async function showDutyAndDigest(options: {
  discord: FakeDiscord;
  guildId: string;
  channelId: string;
  digests: Pick<Digests, 'scheduleOf' | 'setSchedule'>;
  say: (line: string) => void;
}): Promise<void> {
  const { discord, guildId, channelId, say } = options;
  const run = async (name: string, subcommand: string, values: ReturnType<typeof commandOption.string>[]) => {
    const draft = chatInputCommand({ name, subcommand, options: values, as: 'admin', guildId });
    return (await discord.dispatchInteraction(draft, { timeoutMs: 15_000 })).reply?.content ?? '';
  };
  const board = await run('duty', 'board', [commandOption.channel('channel', channelId)]);
  say(`/duty board channel:#staff-room → ${board}`);
  const today = WEEKDAYS[new Date().getUTCDay()] ?? 'monday';
  const digest = await run('digest', 'set', [
    commandOption.channel('channel', channelId),
    commandOption.string('day', today),
    commandOption.integer('hour', 23),
  ]);
  say(`/digest set channel:#staff-room day:${today} hour:23 → ${digest}`);
  const schedule = await options.digests.scheduleOf(guildId);
  if (schedule) {
    await options.digests.setSchedule({ ...schedule, nextAt: Date.now() });
    say("the demo moves the digest's hour to now: the week's digest is posted in #staff-room within a minute");
  }
}
