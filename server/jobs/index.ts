/** `npm run jobs`: the cron jobs alone, for deployments where API instances set JOBS_IN_PROCESS=false. */
import { ConfigError, loadConfig } from '../config';
import { connectDatabase } from '../db/connection';
import { createStorage } from '../integrations/storage';
import { createLogger } from '../lib/logger';
import { startJobs } from './scheduler';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Configuration error: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel);
  if (!config.mongodbUri) {
    // An embedded database belongs to the process that started it: a second one would not be the API's.
    const message = 'npm run jobs needs MONGODB_URI (the database the API uses); with the embedded database the jobs run inside npm start.';
    logger.fatal(message);
    console.error(message);
    process.exit(1);
  }

  let db;
  try {
    db = await connectDatabase(config, logger);
  } catch (err) {
    const message = `Could not connect to the database: ${(err as Error).message}`;
    logger.fatal(message);
    console.error(message);
    process.exit(1);
  }
  const jobs = startJobs({ config, logger, storage: createStorage(config) });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping: finishing the jobs under way');
    const force = setTimeout(() => {
      logger.warn('jobs did not finish in time; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    await jobs.stop();
    await db.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
