/**
 * Runs npm scripts side by side and fails if any fails: `node scripts/run-parallel.mjs lint typecheck build:client`.
 * The checks before the tests are single-threaded (prettier, eslint, tsc, vite), so on a 2-core machine two at
 * once take the time of the longest instead of the sum. Each script's output is kept and printed whole, in the
 * order given, once it ends, so the logs do not interleave.
 */
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('usage: node scripts/run-parallel.mjs <npm script> [<npm script> …]');
  process.exit(2);
}

const runs = scripts.map(
  (name) =>
    new Promise((resolve) => {
      const started = Date.now();
      const child = spawn('npm', ['run', '--silent', name], { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
      const output = [];
      child.stdout.on('data', (chunk) => output.push(chunk));
      child.stderr.on('data', (chunk) => output.push(chunk));
      child.on('close', (code, signal) =>
        resolve({ name, code: code ?? (signal ? 1 : 0), output: Buffer.concat(output), seconds: (Date.now() - started) / 1000 }),
      );
    }),
);

let failed = false;
for (const run of runs) {
  const { name, code, output, seconds } = await run;
  process.stdout.write(`\n== npm run ${name}: ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${seconds.toFixed(1)} s\n`);
  process.stdout.write(output);
  if (code !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
