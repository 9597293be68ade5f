import type { ExportKind, ExportRows } from './record-export-statements.js';
import type { TimeRange } from './record-queries.js';

export { EXPORT_KINDS, type ExportKind, type ExportRows } from './record-export-statements.js';

/** What /export reads of the community record: a kind's rows of a period, a page at a time. */
export interface RecordExport {
  /**
   * Up to `limit` of the guild's rows of `kind` whose time (`at`: when the case was made, the shift or session
   * began, the modcall came) is in `range`, in key order (time first), after the row `after` (the last of the
   * previous page; none for the first). An empty page is the end.
   */
  exportPage<K extends ExportKind>(
    kind: K,
    guildId: string,
    range: TimeRange,
    after: ExportRows[K] | undefined,
    limit: number,
  ): Promise<Array<ExportRows[K]>>;
}
