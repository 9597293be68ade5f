import type { Keyv } from 'keyv';
import type { z } from 'zod';

/**
 * A keyv namespace whose values are checked against a zod schema on the way out, so a record written by an
 * older version (or edited by hand) fails loudly at the read, not three calls later.
 */
export class TypedCollection<S extends z.ZodType> {
  constructor(
    private readonly keyv: Keyv,
    private readonly schema: S,
    private readonly kind: string,
  ) {}

  async get(key: string): Promise<z.infer<S> | undefined> {
    const raw: unknown = await this.keyv.get(key);
    return raw === undefined ? undefined : this.parse(key, raw);
  }

  /** @param ttlMs expiry in milliseconds; omitted, the record is kept until deleted. */
  async set(key: string, value: z.infer<S>, ttlMs?: number): Promise<void> {
    await this.keyv.set(key, value, ttlMs);
  }

  async delete(key: string): Promise<void> {
    await this.keyv.delete(key);
  }

  /** Every live record with its key (without the namespace prefix). Expired records are skipped. */
  async entries(): Promise<Array<[string, z.infer<S>]>> {
    const result: Array<[string, z.infer<S>]> = [];
    if (!this.keyv.iterator) throw new Error(`the store cannot list ${this.kind} records`);
    const prefix = this.keyv.namespace ? `${this.keyv.namespace}:` : '';
    for await (const [key, raw] of this.keyv.iterator(undefined) as AsyncGenerator<[string, unknown]>) {
      if (raw === undefined) continue;
      const bare = key.startsWith(prefix) ? key.slice(prefix.length) : key;
      result.push([bare, this.parse(bare, raw)]);
    }
    return result;
  }

  private parse(key: string, raw: unknown): z.infer<S> {
    const parsed = this.schema.safeParse(raw);
    if (!parsed.success) throw new Error(`stored ${this.kind} record ${key} does not match its schema`);
    return parsed.data;
  }
}
