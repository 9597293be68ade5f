import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

import {
  exportLines,
  groupIntoMessages,
  writeExportFiles,
  type ExportPart,
} from '../../../src/features/record/export-record.js';
import type { ExportRows, RecordExport } from '../../../src/features/record/store/record-export.js';

const T0 = Date.UTC(2026, 10, 25, 12);

function caseRow(number: number): ExportRows['cases'] {
  return {
    at: T0 + number,
    server: '4821337',
    number,
    type: 'warn',
    target_id: '2391045817',
    target_name: `Player ${number}`,
    moderator_id: '284756102938475610',
    moderator_name: 'Mira',
    reason: `reason, ${number}`,
    created_at: T0 + number,
    voided_at: null,
    voided_by: null,
  };
}

/** A store of `count` cases that answers pages by keyset, and counts the pages it was asked for. */
function storeOf(count: number) {
  const rows = Array.from({ length: count }, (_, index) => caseRow(index + 1));
  const asked: Array<number | undefined> = [];
  const community: Pick<RecordExport, 'exportPage'> = {
    exportPage: (_kind, _guild, _range, after, limit) => {
      const last = after as ExportRows['cases'] | undefined;
      asked.push(last?.number);
      const from = last ? rows.findIndex((row) => row.number === last.number) + 1 : 0;
      return Promise.resolve(rows.slice(from, from + limit) as never);
    },
  };
  return { community, asked };
}

async function collect(lines: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const line of lines) text += line;
  return text;
}

describe('an export', () => {
  it('is the header row, then each row, read a page at a time after the last row of the page before', async () => {
    const { community, asked } = storeOf(5);
    const text = await collect(exportLines(community, 'cases', 'g', { from: 0, to: T0 * 2 }, 2));
    expect(text.split('\r\n')).toEqual([
      'server,number,type,target_id,target_name,moderator_id,moderator_name,reason,created,voided,voided_by',
      ...[1, 2, 3, 4, 5].map(
        (n) =>
          `4821337,${n},warn,"2391045817",Player ${n},"284756102938475610",Mira,"reason, ${n}",${new Date(T0 + n).toISOString()},,`,
      ),
      '',
    ]);
    // Pages of 2: after nothing, case 2, case 4 (a short page ends it).
    expect(asked).toEqual([undefined, 2, 4]);
  });

  it('goes into files within the byte limit, each with the header, whole rows only', async () => {
    const { community } = storeOf(20);
    const files = await writeExportFiles(exportLines(community, 'cases', 'g', { from: 0, to: T0 * 2 }, 3), 'cases', {
      partBytes: 600,
      maxParts: 10,
    });
    if (files.outcome !== 'written') throw new Error(`not written: ${files.outcome}`);
    expect(files.rows).toBe(20);
    expect(files.parts.length).toBeGreaterThan(1);
    const numbers: string[] = [];
    for (const [index, part] of files.parts.entries()) {
      expect(part.name).toBe(`cases-${index + 1}.csv`);
      const text = readFileSync(part.path, 'utf8');
      expect(Buffer.byteLength(text)).toBe(part.bytes);
      expect(part.bytes).toBeLessThanOrEqual(600);
      const [header, ...rows] = text.split('\r\n').slice(0, -1);
      expect(header).toMatch(/^server,number,/);
      expect(rows).toHaveLength(part.rows);
      numbers.push(...rows.map((row) => row.split(',')[1] ?? ''));
    }
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, index) => String(index + 1)));
    const dir = dirname(files.parts[0]?.path ?? '');
    await files.dispose();
    expect(existsSync(dir)).toBe(false);
  });

  it('is one file named after its kind when it fits one', async () => {
    const { community } = storeOf(3);
    const files = await writeExportFiles(exportLines(community, 'cases', 'g', { from: 0, to: T0 * 2 }), 'cases', {
      partBytes: 10 * 1024 * 1024,
      maxParts: 10,
    });
    if (files.outcome !== 'written') throw new Error(`not written: ${files.outcome}`);
    expect(files.parts.map((part) => part.name)).toEqual(['cases.csv']);
    await files.dispose();
  });

  it('is empty when the period has no rows, and too big (nothing kept) when it takes more files than allowed', async () => {
    const range = { from: 0, to: T0 * 2 };
    const none = await writeExportFiles(exportLines(storeOf(0).community, 'cases', 'g', range), 'cases', {
      partBytes: 600,
      maxParts: 10,
    });
    expect(none).toEqual({ outcome: 'empty' });
    const big = await writeExportFiles(exportLines(storeOf(50).community, 'cases', 'g', range), 'cases', {
      partBytes: 300,
      maxParts: 3,
    });
    expect(big).toEqual({ outcome: 'too-big', rowsWritten: 3 });
  });

  it('refuses a row that fits no file rather than cutting it', async () => {
    await expect(
      writeExportFiles(exportLines(storeOf(1).community, 'cases', 'g', { from: 0, to: T0 * 2 }), 'cases', {
        partBytes: 150,
        maxParts: 10,
      }),
    ).rejects.toThrow(/fits no file/);
  });
});

describe('the messages of an export', () => {
  const part = (bytes: number, n: number): ExportPart => ({ name: `${n}.csv`, path: '', bytes, rows: 1 });

  it('hold at most the files and the bytes allowed, in order; a file bigger than the bytes goes alone', () => {
    const parts = [part(4, 1), part(4, 2), part(4, 3), part(12, 4), part(1, 5), part(1, 6), part(1, 7)];
    expect(groupIntoMessages(parts, 2, 10).map((message) => message.map((p) => p.name))).toEqual([
      ['1.csv', '2.csv'],
      ['3.csv'],
      ['4.csv'],
      ['5.csv', '6.csv'],
      ['7.csv'],
    ]);
    expect(groupIntoMessages([], 10, 10)).toEqual([]);
  });
});
