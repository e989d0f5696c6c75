/**
 * `npm run backup` and `npm run restore` as an operator runs them: a database with members (real password hashes),
 * pieces with their stored files, an NFT file kept by the app's IPFS folder, and a ledger of listing fees and knacks,
 * backed up, restored into another, empty database and data folder, and the product started on the restored copy:
 * every member signs in with their password and sees their balance, and every file answers its bytes.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mongoose from 'mongoose';
import request from 'supertest';
import { withDatabaseName } from '../../server/db/connection';
import { seedReferenceData } from '../../server/db/seed';
import { localIpfsPinning } from '../../server/integrations/ipfs';
import { outboxMailer } from '../../server/integrations/mail';
import { localStorage } from '../../server/integrations/storage';
import { balanceOf, userAccount } from '../../server/modules/ledger';
import { StoredFileModel } from '../../server/modules/media';
import { createTestApp, FIXTURE_CLIENT_DIR, TEST_JWT_SECRET } from '../helpers/app';
import { createActiveMember, GOOD_PASSWORD, outboxMailbox } from '../helpers/auth';
import { useTestDatabase } from '../helpers/db';
import { knackBy, payListing, type TestMember, type TestPiece } from '../helpers/ledger-factory';
import { jpegWithExif, png } from '../helpers/media';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';

useTestDatabase();

const REPO_ROOT = path.resolve(__dirname, '../..');
const work = mkdtempSync(path.join(os.tmpdir(), 'knack-backup-test-'));
/** The source's DATA_DIR: its uploads and IPFS folders are where the app keeps them. */
const sourceDir = path.join(work, 'source');
const outbox = path.join(work, 'outbox');
const pinning = localIpfsPinning(path.join(sourceDir, 'ipfs'), 'http://knack.test');
const app = createTestApp({
  storage: localStorage(path.join(sourceDir, 'uploads')),
  ipfs: pinning,
  mailer: outboxMailer(outbox, 'Knack <no-reply@knack.test>'),
});

/** The settings every command and the server run with: the tests' secret, no Stellar network. */
const BASE_ENV = { NODE_ENV: 'test', JWT_SECRET: TEST_JWT_SECRET, HORIZON_URL: 'http://127.0.0.1:9', CLIENT_DIR: FIXTURE_CLIENT_DIR };
const restoredNames: string[] = [];

/** A database of its own on the test run's server. */
function databaseUri(name: string): string {
  const base = new URL(process.env.KNACK_TEST_DB_URI!);
  base.pathname = '/';
  return withDatabaseName(base.toString(), name);
}
function newDatabase(label: string): { name: string; uri: string } {
  const name = `${mongoose.connection.name}_${label}`;
  restoredNames.push(name);
  return { name, uri: databaseUri(name) };
}

/** `npm run <script> -- <args>` with `env` over the test's environment. */
function npmRun(script: 'backup' | 'restore', args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('npm', ['run', '--silent', script, '--', ...args], { cwd: REPO_ROOT, env: { ...process.env, ...BASE_ENV, ...env } }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

type Member = TestMember & { password: string };
let ana: Member;
let bea: Member;
let cai: Member;
let pinnedCid: string;
let pinnedBytes: Buffer;
/** The backup every test restores, made once from the database built below. */
const backupDir = path.join(work, 'backup');
let backup: Awaited<ReturnType<typeof npmRun>>;
const expectedBalances = new Map<string, number>();

async function publishPhoto(member: Member, photo: Buffer, title: string): Promise<TestPiece> {
  const upload = await request(app)
    .post('/api/v2/content/upload-photo')
    .set('Authorization', `Bearer ${member.token}`)
    .attach('file', photo, 'cover.png')
    .expect(201);
  const saved = await request(app)
    .post('/api/v2/content/save')
    .set('Authorization', `Bearer ${member.token}`)
    .send({ title, description: 'For the backup', tags: [{ name: 'Photos' }], subTag: 'Travel', photoPath: upload.body.path })
    .expect(201);
  return { id: saved.body.content.id as string, title, ownerId: member.id, payerId: null, knackRateMicros: 50_000, type: 'photos' };
}

async function signedUp(): Promise<Member> {
  const { form, user, token } = await createActiveMember(app, outboxMailbox(outbox));
  return { id: user.id, username: form.username, email: form.email, token, password: GOOD_PASSWORD };
}

beforeAll(async () => {
  await seedReferenceData();
  [ana, bea, cai] = [await signedUp(), await signedUp(), await signedUp()];
  const anaFirst = await publishPhoto(ana, await png(320, 200), 'Harbour');
  await publishPhoto(ana, await jpegWithExif(), 'Lighthouse');
  const beaPiece = await publishPhoto(bea, await png(200, 320, { r: 20, g: 160, b: 90 }), 'Dunes');

  // Ana pays her own listing fee; Cai supports Bea's piece. Knacks then split 100% to Ana, and 90/10 Bea/Cai.
  const anaPaid = await payListing(anaFirst, ana);
  const beaPaid = await payListing(beaPiece, cai);
  await knackBy(bea, anaPaid);
  await knackBy(cai, anaPaid);
  await knackBy(ana, beaPaid);
  expectedBalances.set(ana.id, 100_000).set(bea.id, 45_000).set(cai.id, 5_000);
  for (const member of [ana, bea, cai]) expect(await balanceOf(userAccount(member.id))).toBe(expectedBalances.get(member.id));

  // An NFT file kept by the app's own IPFS folder.
  pinnedBytes = await png(64, 64, { r: 1, g: 2, b: 3 });
  const source = path.join(work, 'nft.png');
  writeFileSync(source, pinnedBytes);
  pinnedCid = (await pinning.pin({ path: source, name: 'nft.png', contentType: 'image/png' })).cid;

  backup = await npmRun('backup', ['--out', backupDir, '--gzip'], { MONGODB_URI: databaseUri(mongoose.connection.name), DATA_DIR: sourceDir });
}, 60_000);

afterAll(async () => {
  for (const name of restoredNames) {
    const connection = await mongoose.createConnection(databaseUri(name)).asPromise();
    await connection.dropDatabase();
    await connection.close();
  }
});

/** Every document of every collection, each collection's documents in `_id` order, as canonical Extended JSON. */
async function everything(db: mongoose.mongo.Db): Promise<Record<string, string[]>> {
  const all: Record<string, string[]> = {};
  for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
    const documents = await db.collection(name).find({}).toArray();
    all[name] = documents.map((d) => mongoose.mongo.BSON.EJSON.stringify(d, { relaxed: false })).sort();
  }
  return all;
}

async function indexNames(db: mongoose.mongo.Db): Promise<Record<string, string[]>> {
  const all: Record<string, string[]> = {};
  for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
    all[name] = (await db.collection(name).listIndexes().toArray()).map((index) => `${String(index.name)}${index.unique ? ' unique' : ''}`).sort();
  }
  return all;
}

describe('npm run backup, then npm run restore into an empty database', () => {
  it('when a database with members, pieces, files and a ledger is backed up and restored elsewhere, then the product on the copy signs every member in, shows every balance and serves every file', async () => {
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toContain(`Backup written: ${backupDir}\n`);

    const manifest = JSON.parse(readFileSync(path.join(backupDir, 'manifest.json'), 'utf8'));
    const storedKeys = (await StoredFileModel.find({}, { _id: 1 }).lean()).map((file) => file._id).sort();
    expect(storedKeys.length).toBe(15); // three pictures, each with its four sizes (17 files with the NFT's and its record)
    expect(manifest.media.uploads.files.map((file: { key: string }) => file.key)).toEqual(storedKeys);
    const countIn = (name: string) => manifest.collections.find((c: { name: string }) => c.name === name).documents as number;
    expect(countIn('users')).toBe(4); // the three members and the support account
    expect(countIn('ledger_entries')).toBe(5);
    expect(manifest).toMatchObject({
      format: 'knack-backup/1',
      app: { name: 'knack' },
      database: { name: mongoose.connection.name },
      archive: { file: 'database.archive.gz', gzip: true },
    });

    const restored = newDatabase('restored');
    const restoredDir = path.join(work, 'restored');
    const restore = await npmRun('restore', ['--from', backupDir], { MONGODB_URI: restored.uri, DATA_DIR: restoredDir });
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    const documents = manifest.collections.reduce((sum: number, c: { documents: number }) => sum + c.documents, 0);
    expect(restore.stdout).toContain(
      `Restored and verified: ${manifest.collections.length} collections and ${documents} documents (counts and checksums read back), 17 files (sizes and SHA-256 read back)\n`,
    );

    // Read independently of the commands' own checks: the same documents, field for field, and the same indexes.
    const copy = await mongoose.createConnection(restored.uri).asPromise();
    try {
      expect(await everything(copy.db!)).toEqual(await everything(mongoose.connection.db!));
      expect(await indexNames(copy.db!)).toEqual(await indexNames(mongoose.connection.db!));
    } finally {
      await copy.close();
    }
    for (const key of storedKeys) {
      expect(readFileSync(path.join(restoredDir, 'uploads', key)).equals(readFileSync(path.join(sourceDir, 'uploads', key)))).toBe(true);
    }

    let server: ServerProcess | undefined;
    try {
      server = await startServerProcess({ ...BASE_ENV, MONGODB_URI: restored.uri, DATA_DIR: restoredDir });
      for (const member of [ana, bea, cai]) {
        const signin = await request(server.url).post('/api/v2/auth/signin').send({ email: member.email, password: member.password }).expect(200);
        const wallet = await request(server.url).get(`/api/v2/wallet/summary/${member.id}`).set('Authorization', `Bearer ${signin.body.token}`).expect(200);
        expect(wallet.body.balanceMicros).toBe(expectedBalances.get(member.id));
      }
      await request(server.url).post('/api/v2/auth/signin').send({ email: ana.email, password: 'Wr0ng!pass' }).expect(401);

      const publicFiles = await StoredFileModel.find({ visibility: 'public' }, { _id: 1 }).lean();
      expect(publicFiles.length).toBeGreaterThan(0);
      for (const { _id: key } of publicFiles) {
        const res = await request(server.url).get(`/files/${key}`).buffer(true).expect(200);
        expect(Buffer.compare(res.body as Buffer, readFileSync(path.join(sourceDir, 'uploads', key)))).toBe(0);
      }
      const nft = await request(server.url).get(`/ipfs/${pinnedCid}`).buffer(true).expect(200);
      expect(Buffer.compare(nft.body as Buffer, pinnedBytes)).toBe(0);
    } finally {
      await server?.stop();
    }
  }, 120_000);

  it('when the target database is not empty, then the restore refuses it and writes nothing; with --drop it replaces it', async () => {
    const occupied = newDatabase('occupied');
    const target = await mongoose.createConnection(occupied.uri).asPromise();
    try {
      await target.db!.collection('users').insertOne({ _id: 'someone-else' } as never);
      const env = { MONGODB_URI: occupied.uri, DATA_DIR: path.join(work, 'occupied') };
      const refused = await npmRun('restore', ['--from', backupDir], env);
      expect([refused.code, refused.stderr]).toEqual([
        1,
        `Restore failed: The target is not empty (users: 1 document). A restore goes into an empty database "${occupied.name}" on ${occupied.uri}: point MONGODB_URI or DB_NAME (and DATA_DIR) at new ones, or pass --drop to replace what is there with the backup.\n`,
      ]);
      expect((await target.db!.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name)).toEqual(['users']);
      expect(await target.db!.collection('users').find({}).toArray()).toEqual([{ _id: 'someone-else' }]);

      const replaced = await npmRun('restore', ['--from', backupDir, '--drop'], env);
      expect(replaced.stderr).toBe('');
      expect(replaced.code).toBe(0);
      expect(replaced.stdout).toContain('Dropped what was there (--drop): users: 1 document\n');
      expect(replaced.stdout).toMatch(/^Restored and verified: \d+ collections and \d+ documents/m);
      expect(await target.db!.collection('users').findOne({ _id: 'someone-else' } as never)).toBeNull();
      expect(await target.db!.collection('users').countDocuments()).toBe(4);
    } finally {
      await target.close();
    }
  }, 60_000);

  it('when the archive or a file of the backup was changed, then the restore says which and writes nothing', async () => {
    /** A copy of the backup with one change made by `damage`. */
    const damagedCopy = (name: string, damage: (folder: string) => void) => {
      const folder = path.join(work, name);
      cpSync(backupDir, folder, { recursive: true });
      damage(folder);
      return folder;
    };
    const archiveChanged = damagedCopy('archive-changed', (folder) => {
      const bytes = readFileSync(path.join(folder, 'database.archive.gz'));
      bytes[bytes.length >> 1]! ^= 0xff;
      writeFileSync(path.join(folder, 'database.archive.gz'), bytes);
    });
    const manifest = JSON.parse(readFileSync(path.join(backupDir, 'manifest.json'), 'utf8'));
    const { key, bytes } = manifest.media.uploads.files[0] as { key: string; bytes: number };
    const fileChanged = damagedCopy('file-changed', (folder) => writeFileSync(path.join(folder, 'media', 'uploads', key), Buffer.alloc(bytes)));

    const target = newDatabase('damaged');
    const env = { MONGODB_URI: target.uri, DATA_DIR: path.join(work, 'damaged-target') };
    const [archiveRefused, fileRefused] = await Promise.all([
      npmRun('restore', ['--from', archiveChanged], env),
      npmRun('restore', ['--from', fileChanged], env),
    ]);
    expect([archiveRefused.code, archiveRefused.stderr]).toEqual([
      1,
      `Restore failed: The archive ${path.join(archiveChanged, 'database.archive.gz')} does not match the manifest (its size or SHA-256 differs): the backup is damaged or was changed.\n`,
    ]);
    expect([fileRefused.code, fileRefused.stderr]).toEqual([
      1,
      `Restore failed: The backup's media files do not match the manifest: ${key}: its SHA-256 differs from the manifest's.\n`,
    ]);

    const untouched = await mongoose.createConnection(target.uri).asPromise();
    expect(await untouched.db!.listCollections().toArray()).toEqual([]);
    await untouched.close();
    expect(existsSync(env.DATA_DIR)).toBe(false);
  }, 60_000);

  it('when no backup is named, or the folder holds none, or the backup’s folder is not empty, then each command says what to do', async () => {
    const env = { MONGODB_URI: databaseUri(`${mongoose.connection.name}_unused`), DATA_DIR: path.join(work, 'empty-data') };
    const nowhere = path.join(work, 'no-such-backup');
    const [unnamed, missing, overwrite] = await Promise.all([
      npmRun('restore', [], env),
      npmRun('restore', ['--from', nowhere], env),
      npmRun('backup', ['--out', backupDir], env),
    ]);
    expect([unnamed.code, unnamed.stderr]).toEqual([1, 'Restore failed: Name the backup to restore: npm run restore -- --from <folder> [--drop].\n']);
    expect([missing.code, missing.stderr]).toEqual([
      1,
      `Restore failed: No backup at ${nowhere}: manifest.json is not there. Name the folder that \`npm run backup\` wrote.\n`,
    ]);
    expect([overwrite.code, overwrite.stderr]).toEqual([1, `Backup failed: The folder ${backupDir} is not empty: name a new folder for the backup (--out).\n`]);
  }, 60_000);

  it('when media are kept in S3, then a backup names the bucket without copying it, and a backup of local media is not restored where S3 is set', async () => {
    const s3 = { S3_BUCKET: 'knack-media', S3_ENDPOINT: 'http://127.0.0.1:9', S3_ACCESS_KEY_ID: 'key', S3_SECRET_ACCESS_KEY: 'secret' };
    const out = path.join(work, 'backup-with-s3');
    const [refused, backup] = await Promise.all([
      npmRun('restore', ['--from', backupDir], { ...s3, MONGODB_URI: newDatabase('s3').uri, DATA_DIR: path.join(work, 's3-target') }),
      npmRun('backup', ['--out', out], { ...s3, MONGODB_URI: databaseUri(mongoose.connection.name), DATA_DIR: sourceDir }),
    ]);
    expect([refused.code, refused.stderr]).toEqual([
      1,
      `Restore failed: This backup holds media files from local disk, and S3_BUCKET is set: copy ${path.join(backupDir, 'media/uploads')} into the bucket (for example with \`aws s3 sync\`) and restore with S3_BUCKET unset, or restore onto a machine that keeps media on local disk.\n`,
    ]);
    expect(backup.code).toBe(0);
    expect(backup.stdout).toContain(
      'Media: not copied. Media are in the S3 bucket, which this backup does not copy: keep them with the bucket’s versioning and replication (docs/operations.md).\n',
    );
    const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8'));
    expect(manifest.media.uploads).toEqual({
      storage: 's3',
      copied: false,
      where: 's3://knack-media at http://127.0.0.1:9',
      note: 'Media are in the S3 bucket, which this backup does not copy: keep them with the bucket’s versioning and replication (docs/operations.md).',
    });
    expect(existsSync(path.join(out, 'media', 'uploads'))).toBe(false);
    expect(manifest.media.ipfs.files).toHaveLength(2);
  }, 60_000);

  it('when restored into the embedded database of a new DATA_DIR, as `npm start` runs it, then a backup of that copy holds the same documents and files', async () => {
    // No MONGODB_URI: the database `npm start` starts under DATA_DIR, found where the tests' own was built.
    const embedded = {
      MONGODB_URI: '',
      DATA_DIR: path.join(work, 'new-machine'),
      PATH: `${path.join(REPO_ROOT, 'data', 'bin')}${path.delimiter}${process.env.PATH}`,
    };
    const restore = await npmRun('restore', ['--from', backupDir], embedded);
    expect(restore.stderr).toBe('');
    expect(restore.stdout).toMatch(/^Restoring into database "knack" on the embedded \S+ under /m);
    expect(restore.code).toBe(0);

    const again = path.join(work, 'backup-of-copy');
    const backup = await npmRun('backup', ['--out', again], embedded);
    expect(backup.code).toBe(0);
    const first = JSON.parse(readFileSync(path.join(backupDir, 'manifest.json'), 'utf8'));
    const second = JSON.parse(readFileSync(path.join(again, 'manifest.json'), 'utf8'));
    expect(second.collections).toEqual(first.collections);
    expect(second.media).toEqual(first.media);
    expect(second.archive).toMatchObject({ file: 'database.archive', gzip: false });
  }, 60_000);
});
