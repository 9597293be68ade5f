import type pg from 'pg';

import { digestBackoffSchema, digestSchema } from '../digest-schema.js';
import { boardAskedSchema, coverageSchema, dutyRoleHoldersSchema, dutySchema } from '../duty-schema.js';
import { communityRecordSchema, modcallCardSchema, recordSweepSchema } from '../record-schema.js';
import { setAsideSchema } from '../set-aside-schema.js';
import { postgresDialect } from '../sql-dialect.js';

/** Serializes migrations between processes starting at once (a session advisory lock, released after). */
const MIGRATION_LOCK = 'bridge.migrations';

/**
 * The schema, one step per version, recorded in `bridge_migration`. Each step runs in a transaction with its
 * record, under an advisory lock, so processes starting together apply it once.
 */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE hook (
    hook_id    TEXT PRIMARY KEY,
    guild_id   TEXT NOT NULL,
    webhook_id TEXT,
    secret     TEXT NOT NULL,
    events     JSONB NOT NULL,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX hook_by_guild ON hook (guild_id, created_at);

  CREATE TABLE guild_settings (
    guild_id TEXT PRIMARY KEY,
    settings JSONB NOT NULL,
    -- Bumped by every change: an accept routed with an older version is refused ('stale') and routed again.
    version  BIGINT NOT NULL
  );

  CREATE SEQUENCE delivery_seq;
  -- Every delivery from acceptance until 24 h after it was posted; (hook_id, delivery_id) is unique for as long
  -- as the row lives, which is what dedupes. seq comes from delivery_seq under the guild's advisory lock, so
  -- within a guild it is commit order.
  CREATE TABLE delivery (
    seq          BIGINT PRIMARY KEY,
    hook_id      TEXT NOT NULL,
    delivery_id  TEXT NOT NULL,
    guild_id     TEXT NOT NULL,
    event        TEXT NOT NULL,
    received_at  BIGINT NOT NULL,
    raw_body     TEXT,
    state        TEXT NOT NULL CHECK (state IN ('waiting', 'parked', 'posted')),
    channel_id   TEXT,
    claim_nonce  TEXT,
    park_kind    TEXT CHECK (park_kind IN ('unrouted', 'broken', 'refused')),
    park_detail  TEXT,
    parked_at    BIGINT,
    posted_at    BIGINT,
    UNIQUE (hook_id, delivery_id)
  );
  CREATE INDEX delivery_lane ON delivery (channel_id, seq) WHERE state = 'waiting';
  CREATE INDEX delivery_by_guild ON delivery (guild_id, state, event);
  CREATE INDEX delivery_posted ON delivery (posted_at) WHERE state = 'posted';
  -- A written-down message is found by its nonce without reading the rest of its lane (ack, resend).
  CREATE INDEX delivery_claimed ON delivery (claim_nonce) WHERE claim_nonce IS NOT NULL;

  CREATE TABLE channel_state (
    channel_id    TEXT PRIMARY KEY,
    guild_id      TEXT NOT NULL,
    failures      INTEGER NOT NULL DEFAULT 0,
    retry_at      BIGINT,
    broken_status INTEGER,
    broken_reason TEXT,
    broken_since  BIGINT
  );
  CREATE INDEX channel_state_by_guild ON channel_state (guild_id);

  CREATE TABLE hook_activity (
    hook_id          TEXT PRIMARY KEY,
    last_delivery_at BIGINT,
    last_event       TEXT,
    refused          INTEGER NOT NULL DEFAULT 0,
    refused_in_a_row INTEGER NOT NULL DEFAULT 0,
    last_refusal     TEXT,
    enabled          BOOLEAN,
    enabled_at       BIGINT
  );

  -- The intake's one round trip: checks the settings version it routed with, stores the delivery (or finds it
  -- there), counts the hook's activity, and announces the work, all in one transaction. NOTIFY is delivered
  -- at commit, so no process hears of work that is not there.
  CREATE FUNCTION bridge_accept(p_hook TEXT, p_delivery TEXT, p_guild TEXT, p_event TEXT, p_body TEXT,
                                p_received BIGINT, p_channel TEXT, p_version BIGINT) RETURNS TEXT
  LANGUAGE plpgsql AS $$
  DECLARE
    v_version BIGINT;
    v_broken  TEXT;
    v_seq     BIGINT;
  BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended('bridge.guild:' || p_guild, 0));
    SELECT version INTO v_version FROM guild_settings WHERE guild_id = p_guild;
    IF COALESCE(v_version, 0) <> p_version THEN
      RETURN 'stale';
    END IF;
    IF p_channel IS NOT NULL THEN
      SELECT broken_reason INTO v_broken FROM channel_state
        WHERE channel_id = p_channel AND broken_status IS NOT NULL;
    END IF;
    INSERT INTO delivery (seq, hook_id, delivery_id, guild_id, event, received_at, raw_body, state, channel_id,
                          park_kind, park_detail, parked_at)
      VALUES (nextval('delivery_seq'), p_hook, p_delivery, p_guild, p_event, p_received, p_body,
              CASE WHEN p_channel IS NULL OR v_broken IS NOT NULL THEN 'parked' ELSE 'waiting' END,
              p_channel,
              CASE WHEN p_channel IS NULL THEN 'unrouted' WHEN v_broken IS NOT NULL THEN 'broken' END,
              CASE WHEN p_channel IS NULL THEN '' WHEN v_broken IS NOT NULL THEN v_broken END,
              CASE WHEN p_channel IS NULL OR v_broken IS NOT NULL THEN p_received END)
      ON CONFLICT (hook_id, delivery_id) DO NOTHING
      RETURNING seq INTO v_seq;
    INSERT INTO hook_activity (hook_id, last_delivery_at, last_event, refused_in_a_row)
      VALUES (p_hook, p_received, p_event, 0)
      ON CONFLICT (hook_id) DO UPDATE SET last_delivery_at = EXCLUDED.last_delivery_at,
        last_event = EXCLUDED.last_event, refused_in_a_row = 0;
    -- No hook-outcome signal for a delivery: only the service's ping and refusals are waited for, and a NOTIFY
    -- per delivery would cost every process a message and every commit the notification queue's lock.
    IF v_seq IS NULL THEN
      RETURN 'duplicate';
    END IF;
    IF p_channel IS NOT NULL AND v_broken IS NULL THEN
      PERFORM pg_notify('bridge', json_build_object('kind', 'work', 'channelId', p_channel, 'guildId', p_guild,
        'at', p_received)::text);
    END IF;
    RETURN 'accepted';
  END $$;
  `,
  `
  CREATE TABLE record (
    kind  TEXT NOT NULL,
    key   TEXT NOT NULL,
    value JSONB NOT NULL,
    PRIMARY KEY (kind, key)
  );
  `,
  `
  -- Admin actions (commands and buttons): who, what, when, how it ended. Read newest first per guild.
  CREATE TABLE audit (
    id       BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    guild_id TEXT NOT NULL,
    user_id  TEXT NOT NULL,
    action   TEXT NOT NULL,
    result   TEXT NOT NULL CHECK (result IN ('done', 'refused', 'failed')),
    detail   TEXT,
    at       BIGINT NOT NULL
  );
  CREATE INDEX audit_by_guild ON audit (guild_id, id);
  CREATE INDEX audit_by_time ON audit (at);
  `,
  `
  -- What routing rules may name besides the event: the game server and a case's type (NULL: none, or stored
  -- before rules could name them). muted: stored as posted because an 'off' rule applied; counted in /status.
  ALTER TABLE delivery ADD COLUMN server TEXT;
  ALTER TABLE delivery ADD COLUMN case_type TEXT;
  ALTER TABLE delivery ADD COLUMN muted BOOLEAN NOT NULL DEFAULT false;
  CREATE INDEX delivery_muted ON delivery (guild_id, event) WHERE muted;

  -- bridge_accept learns the routing keys and muting; same one round trip, same settings-version check.
  DROP FUNCTION bridge_accept(TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT, TEXT, BIGINT);
  CREATE FUNCTION bridge_accept(p_hook TEXT, p_delivery TEXT, p_guild TEXT, p_event TEXT, p_body TEXT,
                                p_received BIGINT, p_channel TEXT, p_version BIGINT,
                                p_server TEXT, p_case_type TEXT, p_muted BOOLEAN) RETURNS TEXT
  LANGUAGE plpgsql AS $$
  DECLARE
    v_version BIGINT;
    v_broken  TEXT;
    v_seq     BIGINT;
  BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended('bridge.guild:' || p_guild, 0));
    SELECT version INTO v_version FROM guild_settings WHERE guild_id = p_guild;
    IF COALESCE(v_version, 0) <> p_version THEN
      RETURN 'stale';
    END IF;
    IF p_muted THEN
      -- Off: kept as posted (the unique key still dedupes the service's retries) and counted, with no body.
      INSERT INTO delivery (seq, hook_id, delivery_id, guild_id, event, received_at, state, posted_at, server,
                            case_type, muted)
        VALUES (nextval('delivery_seq'), p_hook, p_delivery, p_guild, p_event, p_received, 'posted', p_received,
                p_server, p_case_type, true)
        ON CONFLICT (hook_id, delivery_id) DO NOTHING
        RETURNING seq INTO v_seq;
    ELSE
      IF p_channel IS NOT NULL THEN
        SELECT broken_reason INTO v_broken FROM channel_state
          WHERE channel_id = p_channel AND broken_status IS NOT NULL;
      END IF;
      INSERT INTO delivery (seq, hook_id, delivery_id, guild_id, event, received_at, raw_body, state, channel_id,
                            park_kind, park_detail, parked_at, server, case_type)
        VALUES (nextval('delivery_seq'), p_hook, p_delivery, p_guild, p_event, p_received, p_body,
                CASE WHEN p_channel IS NULL OR v_broken IS NOT NULL THEN 'parked' ELSE 'waiting' END,
                p_channel,
                CASE WHEN p_channel IS NULL THEN 'unrouted' WHEN v_broken IS NOT NULL THEN 'broken' END,
                CASE WHEN p_channel IS NULL THEN '' WHEN v_broken IS NOT NULL THEN v_broken END,
                CASE WHEN p_channel IS NULL OR v_broken IS NOT NULL THEN p_received END,
                p_server, p_case_type)
        ON CONFLICT (hook_id, delivery_id) DO NOTHING
        RETURNING seq INTO v_seq;
    END IF;
    INSERT INTO hook_activity (hook_id, last_delivery_at, last_event, refused_in_a_row)
      VALUES (p_hook, p_received, p_event, 0)
      ON CONFLICT (hook_id) DO UPDATE SET last_delivery_at = EXCLUDED.last_delivery_at,
        last_event = EXCLUDED.last_event, refused_in_a_row = 0;
    IF v_seq IS NULL THEN
      RETURN 'duplicate';
    END IF;
    IF NOT p_muted AND p_channel IS NOT NULL AND v_broken IS NULL THEN
      PERFORM pg_notify('bridge', json_build_object('kind', 'work', 'channelId', p_channel, 'guildId', p_guild,
        'at', p_received)::text);
    END IF;
    RETURN 'accepted';
  END $$;
  `,
  `
  -- The intake's accepts of one moment in one round trip and one commit (group commit, as on SQLite): each item
  -- is what bridge_accept takes, as JSON; the answer is each one's outcome, in the items' order. Every guild's
  -- lock is taken first, in one order, so two batches never wait on each other in a circle; then each item is
  -- stored in the order given (seq drawn under its guild's lock, so a guild's order is still commit order).
  -- A hook's activity is written once per batch and a lane's work announced once, not once per delivery.
  CREATE FUNCTION bridge_accept_many(p_items JSONB) RETURNS TEXT[]
  LANGUAGE plpgsql AS $$
  DECLARE
    v_guild    TEXT;
    v_item     JSONB;
    v_version  BIGINT;
    v_channel  TEXT;
    v_muted    BOOLEAN;
    v_broken   TEXT;
    v_seq      BIGINT;
    v_outcomes TEXT[] := '{}';
    v_hooks    TEXT[] := '{}';
    v_ats      BIGINT[] := '{}';
    v_events   TEXT[] := '{}';
    v_work     JSONB := '{}';
  BEGIN
    FOR v_guild IN SELECT DISTINCT item->>'guildId' FROM jsonb_array_elements(p_items) AS item ORDER BY 1 LOOP
      PERFORM pg_advisory_xact_lock(hashtextextended('bridge.guild:' || v_guild, 0));
    END LOOP;
    FOR v_item IN SELECT item FROM jsonb_array_elements(p_items) WITH ORDINALITY AS t(item, n) ORDER BY n LOOP
      SELECT version INTO v_version FROM guild_settings WHERE guild_id = v_item->>'guildId';
      IF COALESCE(v_version, 0) <> (v_item->>'version')::BIGINT THEN
        v_outcomes := v_outcomes || 'stale'::TEXT;
        CONTINUE;
      END IF;
      v_channel := v_item->>'channelId';
      v_muted := (v_item->>'muted')::BOOLEAN;
      v_broken := NULL;
      v_seq := NULL;
      IF v_muted THEN
        INSERT INTO delivery (seq, hook_id, delivery_id, guild_id, event, received_at, state, posted_at, server,
                              case_type, muted)
          VALUES (nextval('delivery_seq'), v_item->>'hookId', v_item->>'deliveryId', v_item->>'guildId',
                  v_item->>'event', (v_item->>'receivedAt')::BIGINT, 'posted', (v_item->>'receivedAt')::BIGINT,
                  v_item->>'server', v_item->>'caseType', true)
          ON CONFLICT (hook_id, delivery_id) DO NOTHING
          RETURNING seq INTO v_seq;
      ELSE
        IF v_channel IS NOT NULL THEN
          SELECT broken_reason INTO v_broken FROM channel_state
            WHERE channel_id = v_channel AND broken_status IS NOT NULL;
        END IF;
        INSERT INTO delivery (seq, hook_id, delivery_id, guild_id, event, received_at, raw_body, state, channel_id,
                              park_kind, park_detail, parked_at, server, case_type)
          VALUES (nextval('delivery_seq'), v_item->>'hookId', v_item->>'deliveryId', v_item->>'guildId',
                  v_item->>'event', (v_item->>'receivedAt')::BIGINT, v_item->>'rawBody',
                  CASE WHEN v_channel IS NULL OR v_broken IS NOT NULL THEN 'parked' ELSE 'waiting' END,
                  v_channel,
                  CASE WHEN v_channel IS NULL THEN 'unrouted' WHEN v_broken IS NOT NULL THEN 'broken' END,
                  CASE WHEN v_channel IS NULL THEN '' WHEN v_broken IS NOT NULL THEN v_broken END,
                  CASE WHEN v_channel IS NULL OR v_broken IS NOT NULL THEN (v_item->>'receivedAt')::BIGINT END,
                  v_item->>'server', v_item->>'caseType')
          ON CONFLICT (hook_id, delivery_id) DO NOTHING
          RETURNING seq INTO v_seq;
      END IF;
      v_hooks := v_hooks || (v_item->>'hookId');
      v_ats := v_ats || (v_item->>'receivedAt')::BIGINT;
      v_events := v_events || (v_item->>'event');
      IF v_seq IS NULL THEN
        v_outcomes := v_outcomes || 'duplicate'::TEXT;
        CONTINUE;
      END IF;
      v_outcomes := v_outcomes || 'accepted'::TEXT;
      IF NOT v_muted AND v_channel IS NOT NULL AND v_broken IS NULL THEN
        -- The lane's latest arrival: what its batching window waits on.
        v_work := jsonb_set(v_work, ARRAY[v_channel],
          jsonb_build_object('guildId', v_item->>'guildId', 'at', GREATEST(
            COALESCE((v_work->v_channel->>'at')::BIGINT, 0), (v_item->>'receivedAt')::BIGINT)));
      END IF;
    END LOOP;
    -- Each hook's latest delivery, a duplicate too (as bridge_accept counts it); a stale item is not counted.
    INSERT INTO hook_activity (hook_id, last_delivery_at, last_event, refused_in_a_row)
      SELECT DISTINCT ON (hook) hook, at, event, 0
      FROM unnest(v_hooks, v_ats, v_events) WITH ORDINALITY AS t(hook, at, event, n)
      ORDER BY hook, at DESC, n DESC
      -- Batches of one moment commit in any order: the latest delivery wins, not the last commit.
      ON CONFLICT (hook_id) DO UPDATE SET
        last_delivery_at = GREATEST(hook_activity.last_delivery_at, EXCLUDED.last_delivery_at),
        last_event = CASE WHEN hook_activity.last_delivery_at > EXCLUDED.last_delivery_at
                          THEN hook_activity.last_event ELSE EXCLUDED.last_event END,
        refused_in_a_row = 0;
    PERFORM pg_notify('bridge', json_build_object('kind', 'work', 'channelId', lane.key,
        'guildId', lane.value->>'guildId', 'at', (lane.value->>'at')::BIGINT)::text)
      FROM jsonb_each(v_work) AS lane;
    RETURN v_outcomes;
  END $$;
  `,
  `
  -- The message a lane wrote down and has not had confirmed (at most one per channel): what a resend sends again
  -- exactly, whatever the cards would plan by then. Looked up by its nonce; a leftover is replaced by the next one.
  CREATE TABLE written_message (
    channel_id TEXT PRIMARY KEY,
    nonce      TEXT NOT NULL,
    message    TEXT NOT NULL
  );
  `,
  `
  -- A document's time (when it falls due, or when it was made), indexed per kind: a timer reads only what is due
  -- and a sweep deletes only what is old, a slice at a time, whatever else the kind holds.
  ALTER TABLE record ADD COLUMN at BIGINT;
  CREATE INDEX record_due ON record (kind, at, key) WHERE at IS NOT NULL;

  -- The cards' documents as earlier versions left them. A removed card was stored as null (a tombstone): gone.
  DELETE FROM record WHERE value = 'null'::jsonb
    AND kind IN ('card', 'card_message', 'card_final', 'modcall_card', 'modcall_caller', 'modcall_escalation');
  -- Followed cards and final states are swept 30 days after their time; a message without one goes at once, as
  -- before. A modcall card is due now: the escalator looks at each once and gives it its time.
  UPDATE record SET at = floor((value->>'postedAt')::numeric)::bigint WHERE kind IN ('card', 'modcall_card');
  UPDATE record SET at = COALESCE(floor((value->>'postedAt')::numeric)::bigint, 0) WHERE kind = 'card_message';
  UPDATE record SET at = floor((value->>'at')::numeric)::bigint WHERE kind = 'card_final';
  -- A caller's latest call has no time of its own: it is kept 30 days from now.
  UPDATE record SET at = (extract(epoch FROM now()) * 1000)::bigint WHERE kind = 'modcall_caller';

  -- Held (parked) entries are dropped after their retention, the oldest first.
  CREATE INDEX delivery_parked ON delivery (parked_at) WHERE state = 'parked';
  `,
  `
  -- bridge_accept_many with the check that an item's hook is still stored (requireHook) done inside, after the
  -- guilds' locks: an item of a removed hook is answered 'unknown-hook', stores nothing and counts nothing. The
  -- intake called bridge_accept_many through a statement that locked the hook rows FOR KEY SHARE and rebuilt the
  -- batch without the refused items; that statement cost PostgreSQL half as much again as the function alone
  -- (planned anew on every batch, the tuple lock written on every batch). bridge_accept_many is kept for the
  -- processes of the previous version during a rolling restart.
  CREATE FUNCTION bridge_accept_batch(p_items JSONB) RETURNS TEXT[]
  LANGUAGE plpgsql AS $$
  DECLARE
    v_guild    TEXT;
    v_item     JSONB;
    v_live     TEXT[];
    v_version  BIGINT;
    v_channel  TEXT;
    v_muted    BOOLEAN;
    v_broken   TEXT;
    v_seq      BIGINT;
    v_outcomes TEXT[] := '{}';
    v_hooks    TEXT[] := '{}';
    v_ats      BIGINT[] := '{}';
    v_events   TEXT[] := '{}';
    v_work     JSONB := '{}';
  BEGIN
    FOR v_guild IN SELECT DISTINCT item->>'guildId' FROM jsonb_array_elements(p_items) AS item ORDER BY 1 LOOP
      PERFORM pg_advisory_xact_lock(hashtextextended('bridge.guild:' || v_guild, 0));
    END LOOP;
    -- Read after the locks, so with a snapshot of after them: a removal holds its guild's lock until it commits
    -- (hooks.remove, forgetGuild), so it is either seen here or waits for this batch to commit. A plain read, no
    -- row lock: locking the hook row (FOR KEY SHARE, as the statement before this function did) wrote to the row
    -- on every batch and, with two batches in flight, made a multixact of it.
    SELECT COALESCE(array_agg(hook_id), '{}') INTO v_live FROM hook
      WHERE hook_id IN (SELECT item->>'hookId' FROM jsonb_array_elements(p_items) AS item
                        WHERE COALESCE((item->>'requireHook')::BOOLEAN, false));
    FOR v_item IN SELECT item FROM jsonb_array_elements(p_items) WITH ORDINALITY AS t(item, n) ORDER BY n LOOP
      IF COALESCE((v_item->>'requireHook')::BOOLEAN, false) AND NOT (v_item->>'hookId' = ANY (v_live)) THEN
        v_outcomes := v_outcomes || 'unknown-hook'::TEXT;
        CONTINUE;
      END IF;
      SELECT version INTO v_version FROM guild_settings WHERE guild_id = v_item->>'guildId';
      IF COALESCE(v_version, 0) <> (v_item->>'version')::BIGINT THEN
        v_outcomes := v_outcomes || 'stale'::TEXT;
        CONTINUE;
      END IF;
      v_channel := v_item->>'channelId';
      v_muted := (v_item->>'muted')::BOOLEAN;
      v_broken := NULL;
      v_seq := NULL;
      IF v_muted THEN
        INSERT INTO delivery (seq, hook_id, delivery_id, guild_id, event, received_at, state, posted_at, server,
                              case_type, muted)
          VALUES (nextval('delivery_seq'), v_item->>'hookId', v_item->>'deliveryId', v_item->>'guildId',
                  v_item->>'event', (v_item->>'receivedAt')::BIGINT, 'posted', (v_item->>'receivedAt')::BIGINT,
                  v_item->>'server', v_item->>'caseType', true)
          ON CONFLICT (hook_id, delivery_id) DO NOTHING
          RETURNING seq INTO v_seq;
      ELSE
        IF v_channel IS NOT NULL THEN
          SELECT broken_reason INTO v_broken FROM channel_state
            WHERE channel_id = v_channel AND broken_status IS NOT NULL;
        END IF;
        INSERT INTO delivery (seq, hook_id, delivery_id, guild_id, event, received_at, raw_body, state, channel_id,
                              park_kind, park_detail, parked_at, server, case_type)
          VALUES (nextval('delivery_seq'), v_item->>'hookId', v_item->>'deliveryId', v_item->>'guildId',
                  v_item->>'event', (v_item->>'receivedAt')::BIGINT, v_item->>'rawBody',
                  CASE WHEN v_channel IS NULL OR v_broken IS NOT NULL THEN 'parked' ELSE 'waiting' END,
                  v_channel,
                  CASE WHEN v_channel IS NULL THEN 'unrouted' WHEN v_broken IS NOT NULL THEN 'broken' END,
                  CASE WHEN v_channel IS NULL THEN '' WHEN v_broken IS NOT NULL THEN v_broken END,
                  CASE WHEN v_channel IS NULL OR v_broken IS NOT NULL THEN (v_item->>'receivedAt')::BIGINT END,
                  v_item->>'server', v_item->>'caseType')
          ON CONFLICT (hook_id, delivery_id) DO NOTHING
          RETURNING seq INTO v_seq;
      END IF;
      v_hooks := v_hooks || (v_item->>'hookId');
      v_ats := v_ats || (v_item->>'receivedAt')::BIGINT;
      v_events := v_events || (v_item->>'event');
      IF v_seq IS NULL THEN
        v_outcomes := v_outcomes || 'duplicate'::TEXT;
        CONTINUE;
      END IF;
      v_outcomes := v_outcomes || 'accepted'::TEXT;
      IF NOT v_muted AND v_channel IS NOT NULL AND v_broken IS NULL THEN
        v_work := jsonb_set(v_work, ARRAY[v_channel],
          jsonb_build_object('guildId', v_item->>'guildId', 'at', GREATEST(
            COALESCE((v_work->v_channel->>'at')::BIGINT, 0), (v_item->>'receivedAt')::BIGINT)));
      END IF;
    END LOOP;
    -- Each hook's latest delivery, a duplicate too; a stale item or one of a removed hook is not counted.
    INSERT INTO hook_activity (hook_id, last_delivery_at, last_event, refused_in_a_row)
      SELECT DISTINCT ON (hook) hook, at, event, 0
      FROM unnest(v_hooks, v_ats, v_events) WITH ORDINALITY AS t(hook, at, event, n)
      ORDER BY hook, at DESC, n DESC
      -- Batches of one moment commit in any order: the latest delivery wins, not the last commit.
      ON CONFLICT (hook_id) DO UPDATE SET
        last_delivery_at = GREATEST(hook_activity.last_delivery_at, EXCLUDED.last_delivery_at),
        last_event = CASE WHEN hook_activity.last_delivery_at > EXCLUDED.last_delivery_at
                          THEN hook_activity.last_event ELSE EXCLUDED.last_event END,
        refused_in_a_row = 0;
    PERFORM pg_notify('bridge', json_build_object('kind', 'work', 'channelId', lane.key,
        'guildId', lane.value->>'guildId', 'at', (lane.value->>'at')::BIGINT)::text)
      FROM jsonb_each(v_work) AS lane;
    RETURN v_outcomes;
  END $$;
  `,
  `
  -- Each feed partition's lease epoch: bumped by a process when it takes the partition (holding its advisory
  -- lock), checked (FOR SHARE) in the transaction of every write-down, confirm and release. A process that lost
  -- the partition without noticing (paused, cut off) is refused from the moment the next owner took it.
  CREATE TABLE feed_lease (
    partition INTEGER PRIMARY KEY,
    epoch     BIGINT NOT NULL
  );
  `,
  `
  -- bridge_accept_batch without a routing decision of its own: each item comes placed (state, channel, park
  -- kind and detail, times, muted, body or none) by the one rule both engines share (src/store/placement.ts),
  -- and is stored as it comes. What the placement assumed is checked here, under the guild's lock, as the
  -- settings version is: the channel's broken state (brokenSeen: its reason, or null while it is not broken).
  -- An item whose premise no longer holds is answered 'stale' and placed again. bridge_accept_batch is kept for
  -- the processes of the previous version during a rolling restart.
  CREATE OR REPLACE FUNCTION bridge_accept_placed(p_items JSONB) RETURNS TEXT[]
  LANGUAGE plpgsql AS $$
  DECLARE
    v_guild    TEXT;
    v_item     JSONB;
    v_live     TEXT[];
    v_version  BIGINT;
    v_channel  TEXT;
    v_broken   TEXT;
    v_seq      BIGINT;
    v_outcomes TEXT[] := '{}';
    v_hooks    TEXT[] := '{}';
    v_ats      BIGINT[] := '{}';
    v_events   TEXT[] := '{}';
    v_work     JSONB := '{}';
  BEGIN
    FOR v_guild IN SELECT DISTINCT item->>'guildId' FROM jsonb_array_elements(p_items) AS item ORDER BY 1 LOOP
      PERFORM pg_advisory_xact_lock(hashtextextended('bridge.guild:' || v_guild, 0));
    END LOOP;
    -- After the locks, as in bridge_accept_batch: a hook's removal is seen here or waits for this commit.
    SELECT COALESCE(array_agg(hook_id), '{}') INTO v_live FROM hook
      WHERE hook_id IN (SELECT item->>'hookId' FROM jsonb_array_elements(p_items) AS item
                        WHERE COALESCE((item->>'requireHook')::BOOLEAN, false));
    FOR v_item IN SELECT item FROM jsonb_array_elements(p_items) WITH ORDINALITY AS t(item, n) ORDER BY n LOOP
      IF COALESCE((v_item->>'requireHook')::BOOLEAN, false) AND NOT (v_item->>'hookId' = ANY (v_live)) THEN
        v_outcomes := v_outcomes || 'unknown-hook'::TEXT;
        CONTINUE;
      END IF;
      SELECT version INTO v_version FROM guild_settings WHERE guild_id = v_item->>'guildId';
      IF COALESCE(v_version, 0) <> (v_item->>'version')::BIGINT THEN
        v_outcomes := v_outcomes || 'stale'::TEXT;
        CONTINUE;
      END IF;
      v_channel := v_item->>'channelId';
      v_broken := NULL;
      IF v_channel IS NOT NULL THEN
        SELECT COALESCE(broken_reason, '') INTO v_broken FROM channel_state
          WHERE channel_id = v_channel AND broken_status IS NOT NULL;
        IF v_broken IS DISTINCT FROM v_item->>'brokenSeen' THEN
          v_outcomes := v_outcomes || 'stale'::TEXT;
          CONTINUE;
        END IF;
      END IF;
      v_seq := NULL;
      INSERT INTO delivery (seq, hook_id, delivery_id, guild_id, event, server, case_type, received_at, raw_body,
                            state, channel_id, park_kind, park_detail, parked_at, posted_at, muted)
        VALUES (nextval('delivery_seq'), v_item->>'hookId', v_item->>'deliveryId', v_item->>'guildId',
                v_item->>'event', v_item->>'server', v_item->>'caseType', (v_item->>'receivedAt')::BIGINT,
                v_item->>'rawBody', v_item->>'state', v_channel, v_item->>'parkKind', v_item->>'parkDetail',
                (v_item->>'parkedAt')::BIGINT, (v_item->>'postedAt')::BIGINT, (v_item->>'muted')::BOOLEAN)
        ON CONFLICT (hook_id, delivery_id) DO NOTHING
        RETURNING seq INTO v_seq;
      v_hooks := v_hooks || (v_item->>'hookId');
      v_ats := v_ats || (v_item->>'receivedAt')::BIGINT;
      v_events := v_events || (v_item->>'event');
      IF v_seq IS NULL THEN
        v_outcomes := v_outcomes || 'duplicate'::TEXT;
        CONTINUE;
      END IF;
      v_outcomes := v_outcomes || 'accepted'::TEXT;
      IF v_item->>'state' = 'waiting' THEN
        v_work := jsonb_set(v_work, ARRAY[v_channel],
          jsonb_build_object('guildId', v_item->>'guildId', 'at', GREATEST(
            COALESCE((v_work->v_channel->>'at')::BIGINT, 0), (v_item->>'receivedAt')::BIGINT)));
      END IF;
    END LOOP;
    -- Each hook's latest delivery, a duplicate too; a stale item or one of a removed hook is not counted.
    INSERT INTO hook_activity (hook_id, last_delivery_at, last_event, refused_in_a_row)
      SELECT DISTINCT ON (hook) hook, at, event, 0
      FROM unnest(v_hooks, v_ats, v_events) WITH ORDINALITY AS t(hook, at, event, n)
      ORDER BY hook, at DESC, n DESC
      ON CONFLICT (hook_id) DO UPDATE SET
        last_delivery_at = GREATEST(hook_activity.last_delivery_at, EXCLUDED.last_delivery_at),
        last_event = CASE WHEN hook_activity.last_delivery_at > EXCLUDED.last_delivery_at
                          THEN hook_activity.last_event ELSE EXCLUDED.last_event END,
        refused_in_a_row = 0;
    PERFORM pg_notify('bridge', json_build_object('kind', 'work', 'channelId', lane.key,
        'guildId', lane.value->>'guildId', 'at', (lane.value->>'at')::BIGINT)::text)
      FROM jsonb_each(v_work) AS lane;
    RETURN v_outcomes;
  END $$;
  `,
  `
  -- The community record (src/store/record-schema.ts), and bridge_accept_placed as before but for one column:
  -- whether the delivery waits to be recorded (unrecorded: 1, absent when it tells the record nothing). A process
  -- of the previous version sends none during a rolling restart: what it accepts meanwhile is not recorded.
  ${communityRecordSchema(postgresDialect)}
  CREATE OR REPLACE FUNCTION bridge_accept_placed(p_items JSONB) RETURNS TEXT[]
  LANGUAGE plpgsql AS $$
  DECLARE
    v_guild    TEXT;
    v_item     JSONB;
    v_live     TEXT[];
    v_version  BIGINT;
    v_channel  TEXT;
    v_broken   TEXT;
    v_seq      BIGINT;
    v_outcomes TEXT[] := '{}';
    v_hooks    TEXT[] := '{}';
    v_ats      BIGINT[] := '{}';
    v_events   TEXT[] := '{}';
    v_work     JSONB := '{}';
  BEGIN
    FOR v_guild IN SELECT DISTINCT item->>'guildId' FROM jsonb_array_elements(p_items) AS item ORDER BY 1 LOOP
      PERFORM pg_advisory_xact_lock(hashtextextended('bridge.guild:' || v_guild, 0));
    END LOOP;
    -- After the locks, as in bridge_accept_batch: a hook's removal is seen here or waits for this commit.
    SELECT COALESCE(array_agg(hook_id), '{}') INTO v_live FROM hook
      WHERE hook_id IN (SELECT item->>'hookId' FROM jsonb_array_elements(p_items) AS item
                        WHERE COALESCE((item->>'requireHook')::BOOLEAN, false));
    FOR v_item IN SELECT item FROM jsonb_array_elements(p_items) WITH ORDINALITY AS t(item, n) ORDER BY n LOOP
      IF COALESCE((v_item->>'requireHook')::BOOLEAN, false) AND NOT (v_item->>'hookId' = ANY (v_live)) THEN
        v_outcomes := v_outcomes || 'unknown-hook'::TEXT;
        CONTINUE;
      END IF;
      SELECT version INTO v_version FROM guild_settings WHERE guild_id = v_item->>'guildId';
      IF COALESCE(v_version, 0) <> (v_item->>'version')::BIGINT THEN
        v_outcomes := v_outcomes || 'stale'::TEXT;
        CONTINUE;
      END IF;
      v_channel := v_item->>'channelId';
      v_broken := NULL;
      IF v_channel IS NOT NULL THEN
        SELECT COALESCE(broken_reason, '') INTO v_broken FROM channel_state
          WHERE channel_id = v_channel AND broken_status IS NOT NULL;
        IF v_broken IS DISTINCT FROM v_item->>'brokenSeen' THEN
          v_outcomes := v_outcomes || 'stale'::TEXT;
          CONTINUE;
        END IF;
      END IF;
      v_seq := NULL;
      INSERT INTO delivery (seq, hook_id, delivery_id, guild_id, event, server, case_type, received_at, raw_body,
                            state, channel_id, park_kind, park_detail, parked_at, posted_at, muted, unrecorded)
        VALUES (nextval('delivery_seq'), v_item->>'hookId', v_item->>'deliveryId', v_item->>'guildId',
                v_item->>'event', v_item->>'server', v_item->>'caseType', (v_item->>'receivedAt')::BIGINT,
                v_item->>'rawBody', v_item->>'state', v_channel, v_item->>'parkKind', v_item->>'parkDetail',
                (v_item->>'parkedAt')::BIGINT, (v_item->>'postedAt')::BIGINT, (v_item->>'muted')::BOOLEAN,
                (v_item->>'unrecorded')::INTEGER)
        ON CONFLICT (hook_id, delivery_id) DO NOTHING
        RETURNING seq INTO v_seq;
      v_hooks := v_hooks || (v_item->>'hookId');
      v_ats := v_ats || (v_item->>'receivedAt')::BIGINT;
      v_events := v_events || (v_item->>'event');
      IF v_seq IS NULL THEN
        v_outcomes := v_outcomes || 'duplicate'::TEXT;
        CONTINUE;
      END IF;
      v_outcomes := v_outcomes || 'accepted'::TEXT;
      IF v_item->>'state' = 'waiting' THEN
        v_work := jsonb_set(v_work, ARRAY[v_channel],
          jsonb_build_object('guildId', v_item->>'guildId', 'at', GREATEST(
            COALESCE((v_work->v_channel->>'at')::BIGINT, 0), (v_item->>'receivedAt')::BIGINT)));
      END IF;
    END LOOP;
    -- Each hook's latest delivery, a duplicate too; a stale item or one of a removed hook is not counted.
    INSERT INTO hook_activity (hook_id, last_delivery_at, last_event, refused_in_a_row)
      SELECT DISTINCT ON (hook) hook, at, event, 0
      FROM unnest(v_hooks, v_ats, v_events) WITH ORDINALITY AS t(hook, at, event, n)
      ORDER BY hook, at DESC, n DESC
      ON CONFLICT (hook_id) DO UPDATE SET
        last_delivery_at = GREATEST(hook_activity.last_delivery_at, EXCLUDED.last_delivery_at),
        last_event = CASE WHEN hook_activity.last_delivery_at > EXCLUDED.last_delivery_at
                          THEN hook_activity.last_event ELSE EXCLUDED.last_event END,
        refused_in_a_row = 0;
    PERFORM pg_notify('bridge', json_build_object('kind', 'work', 'channelId', lane.key,
        'guildId', lane.value->>'guildId', 'at', (lane.value->>'at')::BIGINT)::text)
      FROM jsonb_each(v_work) AS lane;
    RETURN v_outcomes;
  END $$;
  `,
  recordSweepSchema(),
  digestSchema(),
  // The duty feature: the board's message and the on-shift role of each guild (src/store/duty-schema.ts).
  dutySchema(postgresDialect),
  // The coverage guard: each guild's /duty minimum, and the running sessions' index (src/store/duty-schema.ts).
  coverageSchema(),
  // Who chose the on-duty role, and the members it was given to (src/store/duty-schema.ts).
  dutyRoleHoldersSchema(),
  // Each modcall's card, so that a card of several calls is claimed once (src/store/record-schema.ts).
  modcallCardSchema(),
  // Items the batch jobs set aside, and the record writer's index of what waits (src/store/set-aside-schema.ts).
  setAsideSchema(),
  // When the duty board's post was written down: a late resend looks for it first (src/store/duty-schema.ts).
  boardAskedSchema(),
  // A guild whose digest fails backs off; the due read goes by the next try (src/store/digest-schema.ts).
  digestBackoffSchema(),
];

/** Brings the database's schema to the newest version; refuses one written by a newer version of the bot. */
export async function migrate(client: pg.ClientBase): Promise<void> {
  await client.query(`SELECT pg_advisory_lock(hashtextextended($1, 0))`, [MIGRATION_LOCK]);
  try {
    await client.query(
      'CREATE TABLE IF NOT EXISTS bridge_migration (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())',
    );
    const { rows } = await client.query<{ version: number | null }>(
      'SELECT max(version) AS version FROM bridge_migration',
    );
    const current = rows[0]?.version ?? 0;
    if (current > MIGRATIONS.length) {
      throw new Error(
        `the database was migrated by a newer version of the bot (schema ${current}, this version knows ${MIGRATIONS.length}): upgrade the bot`,
      );
    }
    for (let version = current + 1; version <= MIGRATIONS.length; version += 1) {
      await client.query('BEGIN');
      try {
        await client.query(MIGRATIONS[version - 1] ?? '');
        await client.query('INSERT INTO bridge_migration (version) VALUES ($1)', [version]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    }
  } finally {
    await client.query(`SELECT pg_advisory_unlock(hashtextextended($1, 0))`, [MIGRATION_LOCK]);
  }
}
