import { readFileSync } from 'node:fs';

/**
 * Small readers of the Dockerfile and compose.yaml for the tests that hold them to the project: no image can be
 * built or pulled on these machines, so what they name is checked against what exists instead.
 */

export const ROOT = new URL('../../../', import.meta.url).pathname;

export function readProjectFile(path: string): string {
  return readFileSync(ROOT + path, 'utf8');
}

export interface Instruction {
  keyword: string;
  args: string;
}

/** A Dockerfile's stages in order, each its instructions (continued lines joined, comments dropped). */
export function readDockerfileStages(text: string): Instruction[][] {
  const joined = text.replace(/\\\n\s*/g, '');
  const stages: Instruction[][] = [];
  for (const line of joined.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const [keyword = '', ...rest] = trimmed.split(/\s+/);
    const instruction = { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    if (instruction.keyword === 'FROM') stages.push([]);
    stages.at(-1)?.push(instruction);
  }
  return stages;
}

/** The arguments of every instruction `keyword` in `stage`. */
export function argsOf(stage: Instruction[], keyword: string): string[] {
  return stage.filter((instruction) => instruction.keyword === keyword).map((instruction) => instruction.args);
}

/** An instruction's exec form (`["node", "…"]`), parsed; undefined for the shell form. */
export function execForm(args: string): string[] | undefined {
  const start = args.indexOf('[');
  if (start === -1) return undefined;
  const parsed: unknown = JSON.parse(args.slice(start));
  return Array.isArray(parsed) && parsed.every((part) => typeof part === 'string') ? parsed : undefined;
}

/** COPY's sources and destination, and the stage it copies from (`--from=`), if any. */
export function readCopy(args: string): { from: string | undefined; sources: string[]; destination: string } {
  const words = args.split(/\s+/);
  const from = words.find((word) => word.startsWith('--from='))?.slice('--from='.length);
  const paths = words.filter((word) => !word.startsWith('--'));
  return { from, sources: paths.slice(0, -1), destination: paths.at(-1) ?? '' };
}

/**
 * The lines of one service of compose.yaml (two-space indentation, as the file is written), so a test can read
 * its settings with a pattern. Empty when there is no such service.
 */
export function composeService(text: string, name: string): string {
  const lines = text.split('\n');
  const start = lines.indexOf(`  ${name}:`);
  if (start === -1) return '';
  const end = lines.findIndex((line, index) => index > start && /^ {0,2}\S/.test(line));
  return lines.slice(start + 1, end === -1 ? undefined : end).join('\n');
}

/** The `environment:` map of a compose service (`KEY: value` lines), with `${VAR}` references left as they are. */
export function composeEnvironment(service: string): Record<string, string> {
  const block = /\n? {4}environment:\n((?: {6}.*\n?)*)/.exec(service)?.[1] ?? '';
  return Object.fromEntries(
    block
      .split('\n')
      .map((line) => /^ {6}([A-Z_]+): (.*)$/.exec(line))
      .filter((match) => match !== null)
      .map((match) => [match[1] ?? '', match[2] ?? '']),
  );
}

/** compose.yaml's top-level `secrets:`, each name with the file it mounts (`file: ./secrets/<name>`). */
export function composeTopLevelSecrets(text: string): Record<string, string> {
  const block = /^secrets:\n((?: {2}.*\n?)*)/m.exec(text)?.[1] ?? '';
  const entries = [...block.matchAll(/^ {2}(\w+):\n {4}file: (\S+)$/gm)];
  return Object.fromEntries(entries.map((match) => [match[1] ?? '', match[2] ?? '']));
}
