import type { MigrationStep } from './migration-step.js';

/**
 * A document's time, indexed per kind (what is due, what is old), given to the cards' documents an earlier version
 * left without one; and the held entries' index for their retention.
 */
export const documentTimes: MigrationStep = {
  name: 'document-times',
  legacy: { sqlite: 6, postgres: 7 },
  sqlite: `
    -- A document's time (when it falls due, or when it was made), indexed per kind: a timer reads only what is
    -- due and a sweep deletes only what is old, a slice at a time, whatever else the kind holds.
    ALTER TABLE record ADD COLUMN at INTEGER;
    CREATE INDEX record_due ON record (kind, at, key) WHERE at IS NOT NULL;

    -- The cards' documents as earlier versions left them. A removed card was stored as null (a tombstone): gone.
    DELETE FROM record WHERE value = 'null'
      AND kind IN ('card', 'card_message', 'card_final', 'modcall_card', 'modcall_caller', 'modcall_escalation');
    -- Followed cards and final states are swept 30 days after their time; a message without one goes at once,
    -- as before. A modcall card is due now: the escalator looks at each once and gives it its time.
    UPDATE record SET at = json_extract(value, '$.postedAt') WHERE kind IN ('card', 'modcall_card');
    UPDATE record SET at = COALESCE(json_extract(value, '$.postedAt'), 0) WHERE kind = 'card_message';
    UPDATE record SET at = json_extract(value, '$.at') WHERE kind = 'card_final';
    -- A caller's latest call has no time of its own: it is kept 30 days from now.
    UPDATE record SET at = CAST(strftime('%s', 'now') AS INTEGER) * 1000 WHERE kind = 'modcall_caller';

    -- Held (parked) entries are dropped after their retention, the oldest first (with state in the key, the
    -- planner takes this index, not delivery_posted and a sort).
    CREATE INDEX delivery_parked ON delivery (state, parked_at) WHERE state = 'parked';
  `,
  postgres: `
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
};
