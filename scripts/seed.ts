/** `npm run seed`: inserts the reference data (tags, plans, CMS) into the configured database, then exits. */
import { loadConfig } from '../server/config';
import { connectDatabase } from '../server/db/connection';
import { seedReferenceData } from '../server/db/seed';
import { createLogger } from '../server/lib/logger';

async function main() {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const db = await connectDatabase(config, logger);
  try {
    await seedReferenceData();
    logger.info('reference data seeded');
  } finally {
    await db.close();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
