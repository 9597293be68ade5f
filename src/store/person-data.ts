import { randomUUID } from 'node:crypto';

import { bindPerson, type Person, type PersonRows, type PersonStatement } from './person-rows.js';
import type { SqlDialect } from './sql-dialect.js';
import type { SqlRunner } from './sql-runner.js';

/** One kind of row naming a person, and those rows as a member may see them (`at` first). */
export interface KeptRows {
  what: string;
  forgetting: PersonRows['forgetting'];
  rows: Array<Record<string, unknown>>;
}

/** A message the bot posted whose kept embeds name a person: what redacting it edits. */
export interface PostedCard {
  channelId: string;
  messageId: string;
  /** Its embeds as the bot last posted or edited them. */
  embeds: unknown[];
}

/** How many rows of one kind forgetting a person deleted or anonymised. */
export interface ForgottenRows {
  what: string;
  forgetting: PersonRows['forgetting'];
  count: number;
}

/**
 * What the store keeps about one person, over the kernel's rows and every store module's (`personRows`):
 * `/record mine` reads it, `/record forget` counts it for its confirmation and forgets it.
 */
export interface PersonData {
  /** Every kind of row naming the person, with its rows; kinds without rows left out. */
  keptAbout(person: Person): Promise<KeptRows[]>;
  /** How many rows of each kind name the person (kinds without rows left out): the confirmation's counts. */
  count(person: Person): Promise<ForgottenRows[]>;
  /**
   * Deletes or anonymises every row naming the person, every module's in one transaction (all or nothing, on
   * both engines); returns what it counted just before, kinds without rows left out.
   */
  forget(person: Person): Promise<ForgottenRows[]>;
  /** The bot's posted cards in the guild whose kept embeds name the person (read before forgetting). */
  postedCards(person: Person): Promise<PostedCard[]>;
}

/** {@link PersonData} over an engine's SQL runner. */
export class SqlPersonData implements PersonData {
  constructor(
    private readonly dialect: SqlDialect,
    private readonly runner: SqlRunner,
    private readonly kinds: readonly PersonRows[],
    private readonly cards: PersonStatement,
  ) {}

  async postedCards(person: Person): Promise<PostedCard[]> {
    const rows = await this.runner.read<{ key: string; value: string }, unknown[]>(
      this.dialect.sql(this.cards.sql),
      bindPerson(this.cards, person, ''),
    );
    return rows.flatMap(({ key, value }) => {
      const [channelId = '', messageId = ''] = key.split(':');
      const parsed = JSON.parse(value) as { embeds?: unknown };
      return Array.isArray(parsed.embeds) ? [{ channelId, messageId, embeds: parsed.embeds as unknown[] }] : [];
    });
  }

  async keptAbout(person: Person): Promise<KeptRows[]> {
    const kept: KeptRows[] = [];
    for (const kind of this.of(person)) {
      const rows = await this.runner.read<Record<string, unknown>, unknown[]>(
        this.dialect.sql(kind.select.sql),
        bindPerson(kind.select, person, ''),
      );
      if (rows.length > 0) kept.push({ what: kind.what, forgetting: kind.forgetting, rows });
    }
    return kept;
  }

  async count(person: Person): Promise<ForgottenRows[]> {
    return (await this.keptAbout(person)).map(({ what, forgetting, rows }) => ({
      what,
      forgetting,
      count: rows.length,
    }));
  }

  async forget(person: Person): Promise<ForgottenRows[]> {
    const counted = await this.count(person);
    const token = `forgotten-${randomUUID()}`;
    const writes = this.of(person).flatMap((kind) =>
      kind.forget.map((statement) => ({
        sql: this.dialect.sql(statement.sql),
        params: bindPerson(statement, person, token),
      })),
    );
    await this.runner.write(writes);
    return counted;
  }

  private of(person: Person): PersonRows[] {
    return this.kinds.filter((kind) => kind.of === person.kind);
  }
}
