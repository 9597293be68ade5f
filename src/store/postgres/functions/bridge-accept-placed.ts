import type { PostgresFunction } from './postgres-function.js';

/**
 * The intake's one round trip on PostgreSQL (pg-accept-batcher.ts): the accepts of one moment in one statement and
 * one commit. Each item comes placed (state, channel, park kind and detail, times, muted, body or none,
 * `unrecorded`) by the one rule both engines share (src/store/placement.ts), and is stored as it comes. Every
 * guild's lock is taken first, in one order, so two batches never wait on each other in a circle; then which
 * hooks of the items that require one are still stored (read after the locks: a removal holds its guild's lock
 * until it commits, so it is seen here or waits for this batch). What the placement assumed is checked under the
 * guild's lock, as the settings version is: the channel's broken state (`brokenSeen`: its reason, or null while
 * it is not broken); an item whose premise no longer holds is answered 'stale' and placed again. A hook's
 * activity is written once per batch (the latest delivery wins, not the last commit) and a lane's work announced
 * once (NOTIFY is delivered at commit, so no process hears of work that is not there).
 *
 * Its body lives here only: the migration runner applies it (CREATE OR REPLACE) whenever it differs from the one
 * the database has (by its hash, `bridge_function`), after the steps. Its signature never changes: a new one
 * is a new function, and the old one is dropped by a step once no running version calls it.
 */
export const bridgeAcceptPlaced: PostgresFunction = {
  name: 'bridge_accept_placed',
  signature: 'bridge_accept_placed(jsonb)',
  sql: `
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
    -- Read after the locks: a removal holds its guild's lock until it commits (hooks.remove, forgetGuild), so it
    -- is seen here or waits for this batch. A plain read: a row lock would write to the hook row on every batch.
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
};
