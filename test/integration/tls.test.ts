import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { get } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { parseConfig } from '../../src/base/config.js';
import { startBot, type RunningBot } from '../../src/bot.js';
import { captureLogs } from '../helpers/capture-logs.js';
import { PACKAGE_VERSION } from '../helpers/package-version.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { testConfig } from '../helpers/test-config.js';

const REQUIRED = {
  DISCORD_TOKEN: 'token',
  PUBLIC_URL: 'https://bot.example.com',
  SERVICE_URL: 'https://service.example.com',
};

let dir: ReturnType<typeof makeTempDir>;
let certFile: string;
let keyFile: string;

/** GET over HTTPS trusting exactly `ca` (or the system's roots when undefined). */
function httpsGet(url: string, ca: Buffer | undefined): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = get(url, { ...(ca ? { ca } : {}), timeout: 5_000 }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', reject);
  });
}

beforeAll(() => {
  dir = makeTempDir('bridge-tls-');
  certFile = join(dir.path, 'cert.pem');
  keyFile = join(dir.path, 'key.pem');
  // A self-signed certificate for 127.0.0.1, made now: nothing secret is kept in the repository.
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore', timeout: 15_000 },
  );
});

afterAll(() => dir.remove());

describe('TLS_CERT and TLS_KEY', () => {
  it('are optional, and go together', () => {
    expect(parseConfig(REQUIRED)).toMatchObject({ ok: true });
    expect(parseConfig({ ...REQUIRED, TLS_CERT: certFile, TLS_KEY: keyFile })).toMatchObject({
      ok: true,
      config: { TLS_CERT: certFile, TLS_KEY: keyFile },
    });
    expect(parseConfig({ ...REQUIRED, TLS_CERT: certFile })).toEqual({
      ok: false,
      problems: ['TLS_KEY is required when TLS_CERT is set: set both to serve HTTPS, or neither'],
    });
    expect(parseConfig({ ...REQUIRED, TLS_KEY: keyFile })).toEqual({
      ok: false,
      problems: ['TLS_CERT is required when TLS_KEY is set: set both to serve HTTPS, or neither'],
    });
  });

  it('must name readable files', () => {
    const result = parseConfig({ ...REQUIRED, TLS_CERT: join(dir.path, 'missing.pem'), TLS_KEY: dir.path });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([
      expect.stringMatching(/^TLS_CERT must be the path of a readable PEM file: the certificate chain/),
      expect.stringMatching(/^TLS_KEY must be the path of a readable PEM file: its private key/),
    ]);
  });

  describe('the intake served over HTTPS', () => {
    let bot: RunningBot;
    const logs = captureLogs('info');

    beforeAll(async () => {
      bot = await startBot({
        config: testConfig({ TLS_CERT: certFile, TLS_KEY: keyFile }),
        logger: logs.logger,
        host: '127.0.0.1',
        feed: false,
      });
    });

    afterAll(async () => {
      await bot.stop();
    });

    it('answers /healthz to a client that trusts the certificate', async () => {
      expect(bot.http.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const answer = await httpsGet(`${bot.http.url}/healthz`, readFileSync(certFile));
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({
        status: 'ok',
        version: PACKAGE_VERSION,
        store: 'memory',
        role: 'all',
        outbox: 0,
        record_lag_s: 0,
        discord: 'off',
      });
      expect(logs.lines.some((line) => line.includes('"https":true'))).toBe(true);
    });

    it('is refused by a client that does not trust it, and does not speak plain HTTP', async () => {
      await expect(httpsGet(`${bot.http.url}/healthz`, undefined)).rejects.toThrow(/self[- ]signed/i);
      const plain = await fetch(`${bot.http.url.replace('https:', 'http:')}/healthz`).then(
        (response) => response.status,
        () => 'no answer',
      );
      expect(plain).not.toBe(200);
    });
  });

  it('stop the bot from starting when the key does not match the certificate', async () => {
    const otherKey = join(dir.path, 'other-key.pem');
    writeFileSync(
      otherKey,
      execFileSync('openssl', ['genpkey', '-algorithm', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1'], {
        timeout: 15_000,
      }),
    );
    await expect(
      startBot({
        config: testConfig({ TLS_CERT: certFile, TLS_KEY: otherKey }),
        logger: captureLogs().logger,
        host: '127.0.0.1',
        feed: false,
      }),
    ).rejects.toThrow(/key values mismatch|KEY_VALUES_MISMATCH/i);
  });
});
