/**
 * The commands: `npm run backup -- [--out <folder>] [--gzip]` and `npm run restore -- --from <folder> [--drop]`,
 * on the configured database (MONGODB_URI) or the embedded one under DATA_DIR, as `npm start` would use. In the
 * production image, where the sources are not: `node dist/server/backup/cli.js backup …`.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config';
import { ArchiveError } from './archive';
import { defaultBackupFolder, runBackup } from './backup';
import { BackupError } from './errors';
import { MANIFEST_FILE } from './manifest';
import { runRestore } from './restore';

const USAGE = {
  backup: 'npm run backup -- [--out <folder>] [--gzip]',
  restore: 'npm run restore -- --from <folder> [--drop]',
};

/** The backups under DATA_DIR/backups, newest last, for the message of a restore that names none. */
async function backupsUnder(dataDir: string): Promise<string[]> {
  const root = path.join(dataDir, 'backups');
  const names = await readdir(root).catch(() => [] as string[]);
  const whole: string[] = [];
  for (const name of names.sort()) {
    if ((await readdir(path.join(root, name)).catch(() => [] as string[])).includes(MANIFEST_FILE)) whole.push(path.join(root, name));
  }
  return whole;
}

async function main(command: string | undefined, args: string[]): Promise<void> {
  const print = (line: string) => console.log(line);
  if (command === 'backup') {
    const { values } = parseArgs({ args, options: { out: { type: 'string' }, gzip: { type: 'boolean', default: false } }, strict: true });
    const config = loadConfig();
    await runBackup({ config, out: values.out ?? defaultBackupFolder(config.dataDir), gzip: values.gzip, print });
    return;
  }
  if (command === 'restore') {
    const { values } = parseArgs({ args, options: { from: { type: 'string' }, drop: { type: 'boolean', default: false } }, strict: true });
    const config = loadConfig();
    if (!values.from) {
      const found = await backupsUnder(config.dataDir);
      throw new BackupError(
        `Name the backup to restore: ${USAGE.restore}.${found.length ? ` Backups under ${path.join(config.dataDir, 'backups')}:\n  ${found.join('\n  ')}` : ''}`,
      );
    }
    await runRestore({ config, from: values.from, drop: values.drop, print });
    return;
  }
  throw new BackupError(`Usage: ${USAGE.backup}\n       ${USAGE.restore}`);
}

/** What to print for a failure: the words of one the person running the command can act on, else the whole error. */
function failureText(err: unknown, usage: string): string {
  if (err instanceof BackupError || err instanceof ArchiveError || err instanceof ConfigError) return err.message;
  // parseArgs's own errors (an unknown option, a missing value) say what is wrong in words.
  if (err instanceof Error && (err as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) return `${err.message}\nUsage: ${usage}`;
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}

const [command, ...args] = process.argv.slice(2);
main(command, args).then(
  () => process.exit(0),
  (err: unknown) => {
    const restoring = command === 'restore';
    console.error(`${restoring ? 'Restore' : 'Backup'} failed: ${failureText(err, restoring ? USAGE.restore : USAGE.backup)}`);
    process.exit(1);
  },
);
