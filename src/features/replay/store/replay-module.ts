import type { StoreModule } from '../../../store/store-module.js';
import { REPLAY_MIGRATIONS } from './migrations/index.js';
import type { ReplayStore } from './replay-store.js';
import { SqlReplayStore } from './sql-replay-store.js';

/**
 * The replay feature's tables in the store: /feed replay's runs (`replay_run`) and the events each posted into its
 * channel (`replay_post`). Forgetting a guild deletes both (counted as `replayRuns` and `replayPosts`); a guild with
 * a run is known until then.
 */
export const replayModule: StoreModule<ReplayStore> = {
  name: 'replay',
  migrations: REPLAY_MIGRATIONS,
  forgetGuild: [
    { sql: 'DELETE FROM replay_run WHERE guild_id = ?', counted: 'replayRuns' },
    { sql: 'DELETE FROM replay_post WHERE guild_id = ?', counted: 'replayPosts' },
  ],
  keptGuilds: ['SELECT guild_id FROM replay_run', 'SELECT guild_id FROM replay_post'],
  copied: 'replays (/feed replay)',
  // A replay running when the store is copied goes on from where it was, and what was replayed stays replayed.
  copy: async (from, to) => to.restore(await from.listAll()),
  open: ({ dialect, runner }) => new SqlReplayStore(dialect, runner),
};
