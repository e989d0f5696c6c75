/** Process entry: config -> database -> seed -> createApp -> listen -> jobs -> graceful stop on SIGTERM/SIGINT. */
import type { Server } from 'node:http';
import { createApp } from './app';
import { connectDatabase, type Database } from './db/connection';
import { NoDatabaseError } from './db/embedded';
import { seedDemoContent } from './db/demo';
import { seedReferenceData } from './db/seed';
import { createIpfsPinning } from './integrations/ipfs';
import { createMailer } from './integrations/mail';
import { createStorage } from './integrations/storage';
import { startJobs } from './jobs/scheduler';
import { createLogger } from './lib/logger';
import { configOrExit, exitWith, runMain, stopGracefully } from './lib/process';
import { ensurePieceLinks } from './modules/contents';
import { ensureMemberKeys } from './modules/users';
import { buildMissingKeptStates } from './jobs/kept-states';
import { buildServices } from './services';

runMain(async () => {
  const config = configOrExit();
  const logger = createLogger(config.logLevel);
  const db: Database = await connectDatabase(config, logger).catch((err: Error) =>
    exitWith(logger, err instanceof NoDatabaseError ? err.message : `Could not connect to the database: ${err.message}`),
  );

  // Before any seed: a database with no member yet is only marked, as its writers keep every state from the first
  // fact; one whose facts an older release wrote gets each state it never had built from them, once.
  const builtStates = await buildMissingKeptStates();
  if (builtStates.length) logger.info({ states: builtStates }, 'kept states built from the facts');

  if (config.seedOnStart) {
    await seedReferenceData({ supportEmail: config.supportEmail });
    logger.info('reference data seeded');
  }

  const mailer = createMailer(config);
  logger.info(
    { mail: mailer.kind, outbox: mailer.outboxDir },
    mailer.outboxDir ? `mail goes to the outbox: ${config.publicUrl}/dev/mail` : 'mail goes through SMTP',
  );
  const storage = createStorage(config);
  const ipfs = createIpfsPinning(config);
  // Built once: the app, the jobs and the demo seed call the same services.
  const services = buildServices({ config, logger, mailer, storage, ipfs });
  if (config.seedDemo) await seedDemoContent({ services, logger });
  // A database written before member keys and piece links existed gets them once, before the app serves
  // (users/users.keys.ts, contents/contents.links.ts).
  if (await ensureMemberKeys()) logger.info('member keys built');
  if (await ensurePieceLinks()) logger.info('piece links built');
  const app = createApp({ config, logger, pingDatabase: () => db.ping(), mailer, storage, ipfs, services });
  const server: Server = app.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger.info({ port }, `Knack is running at http://localhost:${port}`);
  });
  const jobs = config.jobsInProcess ? startJobs({ logger, storage, services }) : undefined;

  stopGracefully(logger, config.shutdownTimeoutMs, 'open requests', async () => {
    server.close();
    server.closeIdleConnections();
    await Promise.all([new Promise<void>((resolve) => server.once('close', () => resolve())), jobs?.stop()]);
    // Product events already answered for may still be on their way to the analytics service.
    await services.events.forwarded();
    await db.close();
  });
});
