import type { PersonBind, PersonRows, PersonStatement } from './person-rows.js';

/**
 * Where a delivery's body names the person: their id or name as a JSON string, or their mention. Exact, so no
 * other person's delivery (a longer number holding the id) is taken for theirs.
 */
const NAMES = (column: string) =>
  `(${column} LIKE '%"' || CAST(? AS TEXT) || '"%' OR ${column} LIKE '%"' || CAST(? AS TEXT) || '"%' OR ${column} LIKE '%<@' || CAST(? AS TEXT) || '>%')`;
const NAMES_BINDS: readonly PersonBind[] = ['person', 'name', 'person'];

/**
 * Where a document of the guild names the person: its key or value holds their id anywhere (a card's embeds have
 * it in a profile link, a caller's key ends with it), or their name as a JSON string. Broader than {@link NAMES}:
 * a document taken for theirs by mistake only stops the bot editing a card.
 */
const MENTIONS = (column: string) =>
  `(key LIKE '%' || CAST(? AS TEXT) || '%' OR ${column} LIKE '%' || CAST(? AS TEXT) || '%' OR ${column} LIKE '%"' || CAST(? AS TEXT) || '"%')`;
const MENTIONS_BINDS: readonly PersonBind[] = ['person', 'person', 'name'];

/** A document of the guild: keyed by its id, or its id, `:` and more (documents.ts). */
const OF_GUILD = `(key = ? OR key LIKE CAST(? AS TEXT) || ':%')`;
const OF_GUILD_BINDS: readonly PersonBind[] = ['guild', 'guild'];

/** A document's value as text on the engine (PostgreSQL keeps it as jsonb). */
function valueText(engine: 'sqlite' | 'postgres'): string {
  return engine === 'postgres' ? 'CAST(value AS TEXT)' : 'value';
}

/** A card's message is keyed by channel: those of the guild are the channels its followed cards are in. */
function cardChannelOf(engine: 'sqlite' | 'postgres'): string {
  return engine === 'postgres'
    ? `split_part(key, ':', 1) IN (SELECT value->>'channelId' FROM record WHERE kind = 'card' AND key LIKE CAST(? AS TEXT) || ':%')`
    : `substr(key, 1, instr(key, ':') - 1) IN (SELECT json_extract(value, '$.channelId') FROM record WHERE kind = 'card' AND key LIKE CAST(? AS TEXT) || ':%')`;
}

/**
 * The bot's posted cards in the guild whose kept embeds name the person (`card_message`: key
 * `<channel>:<message>`, value `{ embeds }`), read before forgetting deletes them: what redacting them edits.
 */
export function postedCardsStatement(engine: 'sqlite' | 'postgres'): PersonStatement {
  return statement(
    `SELECT key, ${valueText(engine)} AS value FROM record WHERE kind = 'card_message' AND ${cardChannelOf(engine)} AND ${MENTIONS(valueText(engine))} ORDER BY key`,
    ['guild', ...MENTIONS_BINDS],
  );
}

function statement(sql: string, binds: readonly PersonBind[]): PersonStatement {
  return { sql, binds };
}

/**
 * What the kernel keeps that may name a person, as forgetting and `/record mine` reach it: the bodies of the
 * guild's deliveries still kept (waiting, held, or not merged into the record yet: deleted, so nothing of them is
 * posted or merged after), the guild's documents naming them (cards, modcall cards and callers, incidents: deleted,
 * so the bot no longer edits those cards), a posted card's embeds in one of the guild's card channels, and a
 * written-down message a crash left naming them. `jsonText` reads a document's value as text on the engine.
 */
export function kernelPersonRows(engine: 'sqlite' | 'postgres'): PersonRows[] {
  const value = valueText(engine);
  const cardChannel = cardChannelOf(engine);
  const rows = (of: 'player' | 'member'): PersonRows[] => [
    {
      of,
      what: 'deliveries kept with their body',
      forgetting: 'deleted',
      select: statement(
        `SELECT received_at AS at, event, state FROM delivery WHERE guild_id = ? AND raw_body IS NOT NULL AND ${NAMES('raw_body')}`,
        ['guild', ...NAMES_BINDS],
      ),
      forget: [
        statement(`DELETE FROM delivery WHERE guild_id = ? AND raw_body IS NOT NULL AND ${NAMES('raw_body')}`, [
          'guild',
          ...NAMES_BINDS,
        ]),
      ],
    },
    {
      of,
      what: "posted cards' embeds kept to edit them",
      forgetting: 'deleted',
      select: statement(
        `SELECT at, kind FROM record WHERE kind = 'card_message' AND ${cardChannel} AND ${MENTIONS(value)}`,
        ['guild', ...MENTIONS_BINDS],
      ),
      forget: [
        statement(`DELETE FROM record WHERE kind = 'card_message' AND ${cardChannel} AND ${MENTIONS(value)}`, [
          'guild',
          ...MENTIONS_BINDS,
        ]),
      ],
    },
    {
      of,
      what: 'documents naming you (cards, modcall cards, incidents)',
      forgetting: 'deleted',
      select: statement(`SELECT at, kind FROM record WHERE ${OF_GUILD} AND ${MENTIONS(value)}`, [
        ...OF_GUILD_BINDS,
        ...MENTIONS_BINDS,
      ]),
      forget: [
        statement(`DELETE FROM record WHERE ${OF_GUILD} AND ${MENTIONS(value)}`, [
          ...OF_GUILD_BINDS,
          ...MENTIONS_BINDS,
        ]),
      ],
    },
  ];
  return [...rows('player'), ...rows('member')];
}
