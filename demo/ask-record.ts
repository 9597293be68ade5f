import { chatInputCommand, commandOption, type FakeDiscord, type FakeMessage } from '../fakes/discord/index.js';

/** How often the demo admin checks whether the record has the player yet, and how many times at most. */
const TRY_EVERY_MS = 1_000;
const MOST_TRIES = 30;

/**
 * The demo admin reads the community record once the feed flows: `/case lookup` of the first player a case named,
 * then `/leaderboard shifts period:30-days`. Their answers are ephemeral (only the admin sees them in Discord); the
 * preview shows them in a panel of their own. Once.
 */
export function askTheRecord(options: {
  discord: FakeDiscord;
  guildId: string;
  /** The first player a case named, once one did. */
  player: () => string | undefined;
  /** True once every routed channel has messages. */
  flowing: () => boolean;
  say: (line: string) => void;
  onReply: (reply: FakeMessage) => void;
  /** Once the record has answered. */
  then?: () => Promise<void>;
}): () => void {
  const { discord, guildId, say } = options;
  let tries = 0;
  let asking = false;
  const ask = async (name: string, subcommand: string, option: ReturnType<typeof commandOption.string>) => {
    const draft = chatInputCommand({ name, subcommand, options: [option], as: 'admin', guildId });
    return (await discord.dispatchInteraction(draft, { timeoutMs: 15_000 })).reply;
  };
  const timer = setInterval(() => {
    const player = options.player();
    if (asking || !options.flowing() || player === undefined) return;
    asking = true;
    tries += 1;
    void (async () => {
      const lookup = await ask('case', 'lookup', commandOption.string('player', player));
      const title = lookup?.embeds[0]?.title;
      // The record lags the feed by about a second: until it has the player, the answer says so.
      if (!lookup || title === undefined) {
        if (tries >= MOST_TRIES) clearInterval(timer);
        asking = false;
        return;
      }
      clearInterval(timer);
      options.onReply(lookup);
      say(`the admin reads the record: /case lookup player:${player} → ${title}`);
      const board = await ask('leaderboard', 'shifts', commandOption.string('period', '30-days'));
      if (board) {
        options.onReply(board);
        say(`/leaderboard shifts period:30-days → ${board.embeds[0]?.title ?? board.content}`);
      }
      await options.then?.();
    })().catch((error: unknown) => {
      clearInterval(timer);
      say(`reading the record failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  }, TRY_EVERY_MS);
  return () => clearInterval(timer);
}
