import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A script of this project run the way `npm run <script>` runs it (tsx), without npm in between. */
export const tsxArgs = (script: string, args: readonly string[]) => ['--import', 'tsx', script, ...args];

/** A running `npm run demo` child in a process group of its own, with its output kept line by line. */
export interface DemoProcess {
  child: ChildProcess;
  lines: string[];
  stderr: () => string;
  /** The first line matching `pattern`, past or future; rejects after `timeoutMs` or when the demo exits. */
  waitForLine(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray>;
  /** Sends `signal` and resolves with the exit code (null: killed by a signal); SIGKILLs after `timeoutMs`. */
  stop(signal: NodeJS.Signals, timeoutMs: number): Promise<number | null>;
  /** Whether any process of the demo's group is still alive. */
  groupAlive(): boolean;
  /** `ps` of the demo's group, for a failure message. */
  describeGroup(): string;
}

export function startDemoProcess(args: readonly string[]): DemoProcess {
  // detached: a process group of its own, so the test can check that nothing of it outlives it.
  const child = spawn(process.execPath, tsxArgs('scripts/demo.ts', args), {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stderr = '';
  const listeners = new Set<() => void>();
  let partial = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    partial += chunk;
    const parts = partial.split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
    for (const listener of [...listeners]) listener();
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  exited.then(
    () => {
      for (const listener of [...listeners]) listener();
    },
    () => undefined,
  );

  return {
    child,
    lines,
    stderr: () => stderr,
    waitForLine(pattern, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = () => {
          for (const line of lines) {
            const match = pattern.exec(line);
            if (match) return finish(() => resolve(match));
          }
          if (child.exitCode !== null || child.signalCode !== null) {
            finish(() =>
              reject(
                new Error(
                  `the demo exited (${child.exitCode ?? child.signalCode}) before ${pattern}:\n${lines.join('\n')}\n${stderr}`,
                ),
              ),
            );
          }
        };
        const timer = setTimeout(
          () =>
            finish(() =>
              reject(new Error(`no line ${pattern} within ${timeoutMs} ms:\n${lines.join('\n')}\n${stderr}`)),
            ),
          timeoutMs,
        );
        const finish = (settle: () => void) => {
          clearTimeout(timer);
          listeners.delete(check);
          settle();
        };
        listeners.add(check);
        check();
      });
    },
    async stop(signal, timeoutMs) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      const timer = setTimeout(() => {
        if (child.pid !== undefined) {
          try {
            process.kill(-child.pid, 'SIGKILL');
          } catch {
            // Already gone.
          }
        }
      }, timeoutMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
    describeGroup() {
      const ps = spawnSync('ps', ['-o', 'pid,ppid,stat,args', '-g', String(child.pid)], { encoding: 'utf8' });
      return ps.stdout || ps.error?.message || '';
    },
    groupAlive() {
      if (child.pid === undefined) return false;
      try {
        process.kill(-child.pid, 0);
        return true;
      } catch {
        return false;
      }
    },
  };
}

/** Runs `npm run simulate -- <args>` (through tsx) to the end; never throws on a non-zero exit. */
export async function runSimulator(
  args: readonly string[],
  timeoutMs = 30_000,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, tsxArgs('scripts/simulate.ts', args), {
      timeout: timeoutMs,
      encoding: 'utf8',
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === 'number' ? failed.code : -1,
      stdout: failed.stdout ?? '',
      stderr: failed.stderr ?? '',
    };
  }
}
