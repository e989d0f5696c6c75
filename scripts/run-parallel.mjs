/**
 * Runs npm scripts side by side and fails if any fails:
 *
 *   node scripts/run-parallel.mjs test:jest --idle lint typecheck
 *
 * The scripts named before `--idle` run as usual and print as they go. The scripts after it run at the lowest CPU
 * priority (`nice -n 19`) and print whole, in the order given, once they end, so the logs do not interleave. Why:
 * on a 2-core machine the test run leaves the cores idle for a good part of its time (a test waiting on Chromium
 * or the database), and the checks (prettier, ESLint, the type checks) fill those gaps instead of running before
 * the tests; whenever the tests want the cores, they get them.
 */
import { spawn } from 'node:child_process';

const args = process.argv.slice(2);
const idleAt = args.indexOf('--idle');
const live = idleAt < 0 ? args : args.slice(0, idleAt);
const idle = idleAt < 0 ? [] : args.slice(idleAt + 1);
if (live.length + idle.length === 0) {
  console.error('usage: node scripts/run-parallel.mjs <npm script> … [--idle <npm script> …]');
  process.exit(2);
}

const niceAvailable = process.platform !== 'win32';

/** Runs `npm run <name>`; `background` ones at the lowest priority with their output kept for later. */
function run(name, background) {
  return new Promise((resolve) => {
    const started = Date.now();
    const npm = ['npm', 'run', '--silent', name];
    const [command, ...rest] = background && niceAvailable ? ['nice', '-n', '19', ...npm] : npm;
    const child = spawn(command, rest, { stdio: background ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: process.env });
    const output = [];
    if (background) {
      child.stdout.on('data', (chunk) => output.push(chunk));
      child.stderr.on('data', (chunk) => output.push(chunk));
    }
    child.on('close', (code, signal) =>
      resolve({ name, code: code ?? (signal ? 1 : 0), output: Buffer.concat(output), seconds: (Date.now() - started) / 1000 }),
    );
  });
}

const runs = [...live.map((name) => run(name, false)), ...idle.map((name) => run(name, true))];
let failed = false;
for (const result of await Promise.all(runs)) {
  const { name, code, output, seconds } = result;
  process.stdout.write(`\n== npm run ${name}: ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${seconds.toFixed(1)} s\n`);
  process.stdout.write(output);
  if (code !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
