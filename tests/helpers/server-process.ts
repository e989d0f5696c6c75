/**
 * The server as `npm start` runs it (server/index.ts: configuration from the environment, the database, the seed,
 * the app), in a child process of its own, for tests that must see the whole product start on a given database and
 * data folder (a restored backup).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { processEntry } from './process-entries';

export interface ServerProcess {
  url: string;
  /** The server's process id (its memory is read from /proc/{pid}/status). */
  pid: number;
  stop(): Promise<void>;
}

const REPO_ROOT = path.resolve(__dirname, '../..');

/** Starts server/index.ts with `env` over the test's environment, and answers once it listens (on a free port). */
export function startServerProcess(env: Record<string, string>, { timeoutMs = 60_000 } = {}): Promise<ServerProcess> {
  const entry = processEntry('server');
  const child = spawn(process.execPath, [...entry.execArgv, entry.file], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', JOBS_IN_PROCESS: 'false', SEED_DEMO: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`the server did not listen within ${timeoutMs} ms:\n${output.join('')}`));
    }, timeoutMs);
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      output.push(chunk.toString());
      // The log line of a listening server: "Knack is running at http://localhost:<port>".
      const listening = /Knack is running at http:\/\/localhost:(\d+)/.exec(output.join(''));
      if (listening) {
        clearTimeout(timer);
        child.stdout.removeAllListeners('data');
        child.stdout.resume();
        resolve({ url: `http://127.0.0.1:${listening[1]}`, pid: child.pid!, stop });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server stopped before it listened (exit code ${code}):\n${output.join('')}`));
    });
  });
}
