import type { Config } from '../../src/base/config.js';

/** A valid configuration for tests; override what a test is about. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    DISCORD_TOKEN: 'test-token',
    PUBLIC_URL: 'https://bot.example.test',
    PORT: 0,
    METRICS_HOST: '127.0.0.1',
    STORE_URL: 'memory://',
    SERVICE_URL: 'https://service.example.test',
    LOG_LEVEL: 'silent',
    ROLE: 'all',
    REPLAY_WINDOW_HOURS: 24,
    ...overrides,
  };
}

/**
 * The configuration of an end-to-end bot: the fake Discord and fake service at their addresses, a SQLite file,
 * a secret key (so keys are sealed, as in production) and debug logs; `port` 0 until a restart reuses the first.
 */
export function e2eConfig(parts: {
  discordApiUrl: string;
  botToken: string;
  serviceUrl: string;
  storeFile: string;
  port: number;
}): Config {
  return testConfig({
    PORT: parts.port,
    DISCORD_API_URL: parts.discordApiUrl,
    DISCORD_TOKEN: parts.botToken,
    SERVICE_URL: parts.serviceUrl,
    STORE_URL: `sqlite://${parts.storeFile}`,
    SECRET_KEY: 'e2e-secret-key-0123456789',
    LOG_LEVEL: 'debug',
  });
}
