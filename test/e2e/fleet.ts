import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/** One bot process (`npm start`'s entry, src/main.ts) of a fleet: its role, and the port it listens on. */
export interface BotProcess {
  readonly name: string;
  readonly role: 'all' | 'intake' | 'feed';
  port: number;
  child: ChildProcess;
  /** Log lines (JSON) it wrote, parsed. */
  lines: Array<Record<string, unknown>>;
  stderr: string;
}

export interface FleetOptions {
  env: Record<string, string>;
  /**
   * The node arguments that start a bot process. By default the sources through tsx (the tests: no build needed);
   * the benchmarks give `npm start`'s (bench/lib/npm-start-build.ts), to measure what a host runs.
   */
  node?: readonly string[];
}

const FROM_SOURCES = ['--import', 'tsx', 'src/main.ts'];

/** The variables every feed process of a fleet needs, against a fake Discord and a PostgreSQL database. */
export function feedFleetEnv(discord: { botToken: string; apiUrl: string }, storeUrl: string): Record<string, string> {
  return {
    DISCORD_TOKEN: discord.botToken,
    DISCORD_API_URL: discord.apiUrl,
    PUBLIC_URL: 'https://bot.example.test',
    SERVICE_URL: 'https://service.example.test',
    STORE_URL: storeUrl,
    LOG_LEVEL: 'info',
  };
}

/** Real bot processes sharing one store, started, killed and restarted by a test. */
export class Fleet {
  readonly processes = new Map<string, BotProcess>();

  constructor(private readonly options: FleetOptions) {}

  /** Starts a bot process with `role`; resolves once it listens. */
  async start(name: string, role: BotProcess['role'], extraEnv: Record<string, string> = {}): Promise<BotProcess> {
    const child = spawn(process.execPath, this.options.node ?? FROM_SOURCES, {
      env: { PATH: process.env.PATH ?? '', ...this.options.env, ROLE: role, PORT: '0', ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const bot: BotProcess = { name, role, port: 0, child, lines: [], stderr: '' };
    this.processes.set(name, bot);
    let buffer = '';
    const listening = new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} did not listen within 30 s: ${bot.stderr}`)), 30_000);
      child.stdout?.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('utf8');
        const parts = buffer.split('\n');
        buffer = parts.pop() ?? '';
        for (const part of parts) {
          if (!part.trim()) continue;
          const line = JSON.parse(part) as Record<string, unknown>;
          bot.lines.push(line);
          if (typeof line['port'] === 'number' && /listening/.test(String(line['msg']))) {
            clearTimeout(timer);
            resolve(line['port']);
          }
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${name} exited (${String(code)}) before listening: ${bot.stderr}`));
      });
    });
    child.stderr?.on('data', (chunk: Buffer) => (bot.stderr += chunk.toString('utf8')));
    bot.port = await listening;
    return bot;
  }

  /** SIGKILL: no goodbye, as a crash or an OOM kill would end it. */
  async kill(name: string): Promise<void> {
    const bot = this.processes.get(name);
    if (!bot || bot.child.exitCode !== null) return;
    bot.child.kill('SIGKILL');
    await once(bot.child, 'exit');
  }

  /** SIGSTOP: the process stands still (a long GC pause, a frozen VM) until resume(); no socket is closed. */
  pause(name: string): void {
    this.processes.get(name)?.child.kill('SIGSTOP');
  }

  resume(name: string): void {
    this.processes.get(name)?.child.kill('SIGCONT');
  }

  async stopAll(): Promise<void> {
    await Promise.all(
      [...this.processes.values()].map(async (bot) => {
        if (bot.child.exitCode !== null || bot.child.signalCode !== null) return;
        bot.child.kill('SIGTERM');
        const killer = setTimeout(() => bot.child.kill('SIGKILL'), 10_000);
        await once(bot.child, 'exit');
        clearTimeout(killer);
      }),
    );
  }

  /** Intake processes alive now (those a sender may post to). */
  intakes(): BotProcess[] {
    return [...this.processes.values()].filter(
      (bot) => bot.role !== 'feed' && bot.child.exitCode === null && bot.child.signalCode === null,
    );
  }
}
