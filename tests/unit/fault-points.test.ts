/**
 * The crash tests' fault points (server/lib/fault-points.ts): each named once and placed once in the server's code,
 * read from KNACK_FAULT_POINT by the configuration, refused in production, and a SIGKILL at the chosen hit.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../server/config';
import { FAULT_POINTS, parseFaultPoint } from '../../server/lib/fault-points';
import { PROJECT_ROOT } from '../../server/lib/paths';

const SERVER = path.join(PROJECT_ROOT, 'server');
const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });

describe('the fault points', () => {
  it('each is placed exactly once in the server’s code, by its name in FAULT_POINTS', () => {
    const code = sourceFiles(SERVER)
      .filter((file) => !file.endsWith(path.join('lib', 'fault-points.ts')))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const placed = Object.fromEntries(Object.keys(FAULT_POINTS).map((key) => [key, code.split(`faultPoint(FAULT_POINTS.${key})`).length - 1]));
    expect(placed).toEqual(Object.fromEntries(Object.keys(FAULT_POINTS).map((key) => [key, 1])));
    // No point is placed by a bare string, which the check above would miss.
    expect(code).not.toMatch(/faultPoint\(['"`]/);
  });

  it('each name is unique and reads back through parseFaultPoint, alone or with the hit that kills', () => {
    const names = Object.values(FAULT_POINTS);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(parseFaultPoint(name)).toEqual({ name, hit: 1 });
    expect(parseFaultPoint('deletion.after-step:6')).toEqual({ name: 'deletion.after-step', hit: 6 });
    expect(parseFaultPoint('knack.after-lunch')).toEqual(
      expect.stringMatching(/^KNACK_FAULT_POINT must name a fault point \(knack\.after-window, .*got "knack\.after-lunch"\.$/),
    );
    expect(parseFaultPoint('knack.after-window:0')).toBe('KNACK_FAULT_POINT\'s hit must be 1 or more; got "knack.after-window:0".');
  });
});

describe('KNACK_FAULT_POINT in the configuration', () => {
  const production = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), PAYMENTS_PROVIDER: 'sandbox' };

  it('when it is unset, then no point is armed, in production too', () => {
    expect(loadConfig({}).faultPoint).toBeUndefined();
    expect(loadConfig(production).faultPoint).toBeUndefined();
  });

  it('when a test sets it, then it names the point and its hit', () => {
    expect(loadConfig({ NODE_ENV: 'test', KNACK_FAULT_POINT: 'payout.after-ledger:2' }).faultPoint).toEqual({ name: 'payout.after-ledger', hit: 2 });
    expect(() => loadConfig({ NODE_ENV: 'test', KNACK_FAULT_POINT: 'payout.after-lunch' })).toThrow(ConfigError);
  });

  it('when it is set with NODE_ENV=production, then the configuration is refused, and npm start exits 1 saying why', () => {
    expect(() => loadConfig({ ...production, KNACK_FAULT_POINT: 'knack.after-ledger' })).toThrow(
      new ConfigError('KNACK_FAULT_POINT is for crash tests only and is refused when NODE_ENV=production: unset it.'),
    );
    const start = spawnSync(process.execPath, ['--import', 'tsx', path.join(SERVER, 'index.ts')], {
      cwd: PROJECT_ROOT,
      env: { PATH: process.env.PATH, ...production, KNACK_FAULT_POINT: 'knack.after-ledger', MONGODB_URI: 'mongodb://127.0.0.1:9/never' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect({ status: start.status, stderr: start.stderr.trim() }).toEqual({
      status: 1,
      stderr: 'Configuration error: KNACK_FAULT_POINT is for crash tests only and is refused when NODE_ENV=production: unset it.',
    });
  });
});

describe('faultPoint', () => {
  /** Runs `script` in a Node process of its own, with the fault-point library as `fp`. */
  const run = (script: string) =>
    spawnSync(process.execPath, ['--import', 'tsx', '-e', `const fp = require(${JSON.stringify(path.join(SERVER, 'lib/fault-points.ts'))});\n${script}`], {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });

  it('when no point is armed, then every point does nothing', () => {
    const result = run("for (const name of Object.values(fp.FAULT_POINTS)) fp.faultPoint(name); console.log('alive');");
    expect({ signal: result.signal, stdout: result.stdout }).toEqual({ signal: null, stdout: 'alive\n' });
  });

  it('when a point is armed for its 2nd hit, then the process lives through the 1st and other points, and dies by SIGKILL at the 2nd', () => {
    const result = run(
      "fp.armFaultPoint({ name: 'email.after-switch', hit: 2 }); fp.faultPoint('email.after-switch'); fp.faultPoint('email.after-cancel-links'); console.log('first'); fp.faultPoint('email.after-switch'); console.log('second');",
    );
    expect({ signal: result.signal, stdout: result.stdout }).toEqual({ signal: 'SIGKILL', stdout: 'first\n' });
  });
});
