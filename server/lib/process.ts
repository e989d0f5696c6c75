/** What the process entries (`npm start`, `npm run jobs`) share: reading config, failing clearly, stopping gracefully. */
import { ConfigError, loadConfig, type Config } from '../config';
import { armFaultPoint } from './fault-points';
import type { Logger } from './logger';

/** The configuration, or exit 1 with the reason; a crash test's fault point (never in production) is armed here. */
export function configOrExit(): Config {
  try {
    const config = loadConfig();
    armFaultPoint(config.faultPoint);
    return config;
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Configuration error: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
}

/** Logs and prints `message`, then exits 1. */
export function exitWith(logger: Logger, message: string): never {
  logger.fatal(message);
  console.error(message);
  process.exit(1);
}

/**
 * On SIGTERM or SIGINT runs `finish` once (close servers, wait for work under way, close the database),
 * then exits; exits 1 if it takes longer than `timeoutMs`.
 */
export function stopGracefully(logger: Logger, timeoutMs: number, what: string, finish: () => Promise<void>): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, `stopping: finishing ${what}`);
    setTimeout(() => {
      logger.warn(`${what} did not finish in time; exiting`);
      process.exit(1);
    }, timeoutMs).unref();
    await finish();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

/** Runs a process entry; an unexpected error is printed and exits 1. */
export function runMain(main: () => Promise<void>): void {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
