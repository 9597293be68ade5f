import { loadConfigOrExit } from './base/config.js';
import { createLogger } from './base/logger.js';
import { StartupError } from './base/startup-error.js';
import { bridgeVersion } from './base/version.js';
import { startBot } from './bot.js';

const config = loadConfigOrExit();
const logger = createLogger(config.LOG_LEVEL);
// The log's first line says what runs: a host reading it after an upgrade sees which version started, on which Node.
logger.info({ version: bridgeVersion(), node: process.version }, 'service-discord-bridge starting');

try {
  const bot = await startBot({ config, logger });
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    bot.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
} catch (error) {
  if (error instanceof StartupError) {
    // Something the host must fix, said in one line (and never a secret).
    process.stderr.write(`Cannot start: ${error.message}\n`);
  } else {
    logger.fatal({ err: error }, 'could not start');
  }
  process.exit(1);
}
