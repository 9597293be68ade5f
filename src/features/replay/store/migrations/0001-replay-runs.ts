import type { MigrationStep } from '../../../../store/migrations/migration-step.js';

/**
 * /feed replay's runs and what they posted.
 *
 * `replay_run` is one replay into one channel: the events received since `since_at`, of the deliveries stored up to
 * `up_to_seq` when it started, read in store order past `cursor_seq`. The message it is about to send is written
 * down first (`written_*`: its nonce, its body, when, and the cursor once it is confirmed), so a restart sends that
 * very message again under its nonce. One running replay per channel (`replay_running`). `started_by` is the member
 * who started it.
 *
 * `replay_post` is each event a replay posted into a channel, by the delivery's key: its primary key is what keeps
 * an event from being replayed twice into one channel, whichever run. Kept for the replay window (the sweep), as
 * long as the event could be replayed at all.
 *
 * The index on `delivery` is what a run reads: a guild's posted deliveries in store order (the kernel's indexes
 * have the guild's by event, and the posted ones by time).
 */
const SQL = `
    CREATE TABLE replay_run (
      run_id           TEXT PRIMARY KEY,
      guild_id         TEXT NOT NULL,
      channel_id       TEXT NOT NULL,
      since_at         BIGINT NOT NULL,
      up_to_seq        BIGINT NOT NULL,
      cursor_seq       BIGINT NOT NULL,
      started_by       TEXT NOT NULL,
      started_at       BIGINT NOT NULL,
      ended_at         BIGINT,
      posted           INTEGER NOT NULL DEFAULT 0,
      failure          TEXT,
      written_nonce    TEXT,
      written_message  TEXT,
      written_at       BIGINT,
      written_up_to    BIGINT
    );
    CREATE UNIQUE INDEX replay_running ON replay_run (channel_id) WHERE ended_at IS NULL;
    CREATE INDEX replay_run_by_guild ON replay_run (guild_id);
    CREATE TABLE replay_post (
      channel_id   TEXT NOT NULL,
      hook_id      TEXT NOT NULL,
      delivery_id  TEXT NOT NULL,
      guild_id     TEXT NOT NULL,
      run_id       TEXT NOT NULL,
      nonce        TEXT NOT NULL,
      received_at  BIGINT NOT NULL,
      posted_at    BIGINT,
      PRIMARY KEY (channel_id, hook_id, delivery_id)
    );
    CREATE INDEX replay_post_by_nonce ON replay_post (run_id, nonce);
    CREATE INDEX replay_post_by_guild ON replay_post (guild_id);
    CREATE INDEX replay_post_received ON replay_post (received_at);
`;

export const replayRuns: MigrationStep = {
  name: 'replay-runs',
  sqlite: `${SQL}
    CREATE INDEX delivery_replay_source ON delivery (guild_id, seq) WHERE state = 'posted';`,
  postgres: `${SQL}
    CREATE INDEX delivery_replay_source ON delivery (guild_id, seq) WHERE state = 'posted';`,
};
