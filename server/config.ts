/**
 * The only reader of process.env. Every variable is documented in README.md (Configuration).
 * Values are parsed and defaulted here; a wrong value stops the process at start with a clear message.
 */
import path from 'node:path';
import { PROJECT_ROOT } from './lib/paths';

export type Environment = 'development' | 'production' | 'test';

export interface Config {
  env: Environment;
  /** HTTP port of the one process that serves the API and the SPA. */
  port: number;
  host: string;
  /** MongoDB connection string; when absent an embedded database is started (see server/db/embedded.ts). */
  mongodbUri: string | undefined;
  /** Database name used with the embedded database or when the URI names none. */
  dbName: string;
  /** Where local state lives: db/, bin/ (FerretDB), later uploads/ and mail/. */
  dataDir: string;
  /** The built SPA (vite build output). */
  clientDir: string;
  logLevel: string;
  /** Seed reference data (tags, plans, CMS) at start. Idempotent. */
  seedOnStart: boolean;
  /** Check every API response against openapi.yaml (on in tests and development). */
  validateResponses: boolean;
  /** Express "trust proxy" setting, for the client address behind a load balancer. */
  trustProxy: boolean | number | string;
  /** How long a graceful stop waits for open requests before exiting. */
  shutdownTimeoutMs: number;
}

export class ConfigError extends Error {}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}; got "${raw}".`);
  }
  return value;
}

function bool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false; got "${env[name]}".`);
}

function trustProxy(raw: string | undefined): boolean | number | string {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  return /^\d+$/.test(raw) ? Number(raw) : raw;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const nodeEnv = env.NODE_ENV ?? 'development';
  if (!['development', 'production', 'test'].includes(nodeEnv)) {
    throw new ConfigError(`NODE_ENV must be development, production or test; got "${nodeEnv}".`);
  }
  const mode = nodeEnv as Environment;
  const dataDir = path.resolve(PROJECT_ROOT, env.DATA_DIR ?? 'data');
  const mongodbUri = env.MONGODB_URI?.trim() || undefined;
  if (mongodbUri && !/^mongodb(\+srv)?:\/\//.test(mongodbUri)) {
    throw new ConfigError('MONGODB_URI must start with mongodb:// or mongodb+srv://.');
  }
  return {
    env: mode,
    port: int(env, 'PORT', 3000, 0, 65535),
    host: env.HOST ?? '0.0.0.0',
    mongodbUri,
    dbName: env.DB_NAME ?? 'knack',
    dataDir,
    clientDir: path.resolve(PROJECT_ROOT, env.CLIENT_DIR ?? 'dist/client'),
    logLevel: env.LOG_LEVEL ?? (mode === 'test' ? 'silent' : 'info'),
    seedOnStart: bool(env, 'SEED_ON_START', true),
    validateResponses: bool(env, 'VALIDATE_RESPONSES', mode !== 'production'),
    trustProxy: trustProxy(env.TRUST_PROXY),
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
  };
}
