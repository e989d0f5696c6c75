/** `npm run jobs`: the cron jobs alone, for deployments where API instances set JOBS_IN_PROCESS=false. */
import { connectDatabase } from '../db/connection';
import { createIpfsPinning } from '../integrations/ipfs';
import { createMailer } from '../integrations/mail';
import { createStorage } from '../integrations/storage';
import { createLogger } from '../lib/logger';
import { configOrExit, exitWith, runMain, stopGracefully } from '../lib/process';
import { buildServices } from '../services';
import { startJobs } from './scheduler';

runMain(async () => {
  const config = configOrExit();
  const logger = createLogger(config.logLevel);
  if (!config.mongodbUri) {
    // An embedded database belongs to the process that started it: a second one would not be the API's.
    exitWith(logger, 'npm run jobs needs MONGODB_URI (the database the API uses); with the embedded database the jobs run inside npm start.');
  }
  const db = await connectDatabase(config, logger).catch((err: Error) => exitWith(logger, `Could not connect to the database: ${err.message}`));
  const storage = createStorage(config);
  const jobs = startJobs({
    logger,
    storage,
    services: buildServices({ config, logger, mailer: createMailer(config), storage, ipfs: createIpfsPinning(config) }),
  });
  stopGracefully(logger, config.shutdownTimeoutMs, 'the jobs under way', async () => {
    await jobs.stop();
    await db.close();
  });
});
