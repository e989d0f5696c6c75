/**
 * `npm run rebuild -- [--check] [name…]`: recomputes kept totals, ranked lists and running balances from the facts
 * (server/jobs/kept-states.ts). With `--check` it writes nothing and exits 1 when anything kept differs from its
 * rebuild, printing the differences; without it, it writes the rebuilt state. No name means all of them.
 */
import { loadConfig } from '../server/config';
import { connectDatabase } from '../server/db/connection';
import { keptStatesNamed } from '../server/jobs/kept-states';
import { rebuildKeptState } from '../server/lib/kept-state';
import { createLogger } from '../server/lib/logger';

async function main() {
  const args = process.argv.slice(2);
  const checkOnly = args.includes('--check');
  const states = keptStatesNamed(args.filter((arg) => arg !== '--check'));
  const config = loadConfig();
  const db = await connectDatabase(config, createLogger(config.logLevel));
  let differing = 0;
  try {
    for (const state of states) {
      const started = Date.now();
      const report = checkOnly ? await state.check() : await rebuildKeptState(state);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(`${state.name}: ${report.checked} ${checkOnly ? 'checked' : 'written'}, ${report.differences.length} differing (${seconds} s)`);
      for (const line of report.differences) console.log(`  ${line}`);
      if (report.differences.length > 0) differing += 1;
    }
  } finally {
    await db.close();
  }
  if (checkOnly && differing > 0) process.exit(1);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
