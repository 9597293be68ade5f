import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** The project's root: where the benchmarks' builds run. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = fileURLToPath(import.meta.resolve('typescript/bin/tsc'));

/** Runs the project's TypeScript compiler with `args` in the project's root; a failure says what `what` was. */
export async function runTsc(args: readonly string[], what: string): Promise<void> {
  try {
    await promisify(execFile)(process.execPath, [TSC, ...args], { cwd: ROOT });
  } catch (error) {
    const output = error as { stdout?: string; stderr?: string };
    throw new Error(`${what} failed: ${output.stdout ?? ''}${output.stderr ?? ''}`.trim());
  }
}
