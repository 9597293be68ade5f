import type { Config } from '../../src/base/config.js';

/** A valid configuration for tests; override what a test is about. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    DISCORD_TOKEN: 'test-token',
    PUBLIC_URL: 'https://bot.example.test',
    PORT: 0,
    STORE_URL: 'memory://',
    SERVICE_URL: 'https://service.example.test',
    LOG_LEVEL: 'silent',
    ROLE: 'all',
    ...overrides,
  };
}
