import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Child processes of the benchmarks: servers and load generators each get a process of their own, so the
 * load never shares an event loop with what it measures. Messages go over the IPC channel of `fork`.
 */

/** `--import <tsx>` for children: TypeScript runs as it does under `npm run bench`, resolved from this project. */
const TSX_IMPORT = ['--import', import.meta.resolve('tsx')];

/** A forked TypeScript module of bench/lib and a typed request/response over IPC. */
export class Child<Request, Reply> {
  private readonly process: ChildProcess;
  private readonly exited: Promise<number | null>;
  private readonly waiting: Array<(reply: Reply) => void> = [];
  private readonly failures: Array<(error: Error) => void> = [];

  constructor(module: string, args: readonly string[] = [], extraExecArgv: readonly string[] = []) {
    const file = fileURLToPath(new URL(module, import.meta.url));
    this.process = fork(file, [...args], {
      execArgv: [...TSX_IMPORT, ...extraExecArgv],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.process.on('message', (message) => this.waiting.shift()?.(message as Reply));
    this.exited = new Promise((resolve) => {
      this.process.on('exit', (code) => {
        const error = new Error(`${module} exited with code ${String(code)} while a reply was awaited`);
        for (const fail of this.failures.splice(0)) fail(error);
        resolve(code);
      });
    });
  }

  /** The next message the child sends (e.g. its "ready" message). */
  next(): Promise<Reply> {
    return new Promise((resolve, reject) => {
      this.waiting.push((reply) => {
        this.failures.splice(this.failures.indexOf(reject), 1);
        resolve(reply);
      });
      this.failures.push(reject);
    });
  }

  /** Sends `request` and resolves with the child's next message. */
  ask(request: Request): Promise<Reply> {
    const reply = this.next();
    this.process.send(request as object);
    return reply;
  }

  /** Sends `request` without waiting for an answer. */
  tell(request: Request): void {
    if (this.process.connected) this.process.send(request as object);
  }

  /** Waits for the child to end on its own (after a "stop" request); kills it after `graceMs`. */
  async ended(graceMs = 10_000): Promise<number | null> {
    const timer = setTimeout(() => this.process.kill('SIGKILL'), graceMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }
}
