/** Process entry: config -> database -> seed -> createApp -> listen -> jobs -> graceful stop on SIGTERM/SIGINT. */
import type { Server } from 'node:http';
import { createApp } from './app';
import { ConfigError, loadConfig } from './config';
import { connectDatabase, type Database } from './db/connection';
import { NoDatabaseError } from './db/embedded';
import { seedDemoContent } from './db/demo';
import { seedReferenceData } from './db/seed';
import { createMailer } from './integrations/mail';
import { createStorage } from './integrations/storage';
import { startJobs } from './jobs/scheduler';
import { createLogger } from './lib/logger';

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

  let db: Database;
  try {
    db = await connectDatabase(config, logger);
  } catch (err) {
    const message = err instanceof NoDatabaseError ? err.message : `Could not connect to the database: ${(err as Error).message}`;
    logger.fatal(message);
    console.error(message);
    process.exit(1);
  }

  if (config.seedOnStart) {
    await seedReferenceData();
    logger.info('reference data seeded');
  }

  const mailer = createMailer(config);
  logger.info({ mail: mailer.kind, outbox: mailer.outboxDir }, mailer.outboxDir ? `mail goes to the outbox: ${config.publicUrl}/dev/mail` : 'mail goes through SMTP');
  const storage = createStorage(config);
  if (config.seedDemo) await seedDemoContent({ storage, signingSecret: config.auth.jwtSecret, logger });
  const app = createApp({ config, logger, pingDatabase: db.ping, mailer, storage });
  const server: Server = app.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger.info({ port }, `Knack is running at http://localhost:${port}`);
  });
  const jobs = config.jobsInProcess ? startJobs({ config, logger, storage }) : undefined;

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping: finishing open requests');
    const force = setTimeout(() => {
      logger.warn('open requests did not finish in time; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    server.close();
    server.closeIdleConnections();
    await Promise.all([new Promise<void>((resolve) => server.once('close', () => resolve())), jobs?.stop()]);
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
