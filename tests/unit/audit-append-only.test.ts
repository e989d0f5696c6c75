/**
 * Nobody can edit or delete the audit log, admins included, because nothing exists that would: the contract has no
 * call that writes to it (only reading it), the audit module exports no function that changes or removes an entry,
 * its code makes no write but the insert of a new entry, and no other server code touches its collection.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import * as audit from '../../server/modules/audit';
import { readContract } from '../../server/lib/contract-routes';
import { OPENAPI_PATH } from '../../server/lib/paths';

const SERVER = path.resolve(__dirname, '../../server');
const MODULE = path.join(SERVER, 'modules/audit');

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : file.endsWith('.ts') ? [file] : [];
  });

it('the contract has no call that writes to the audit log: its module serves reads only, and no other call names it', () => {
  const calls = Object.entries(readContract(OPENAPI_PATH).paths).flatMap(([pathName, item]) =>
    Object.keys(item ?? {})
      .filter((key) => ['get', 'put', 'post', 'patch', 'delete'].includes(key))
      .map((method) => ({ call: `${method.toUpperCase()} ${pathName}`, module: item?.['x-module'], path: pathName })),
  );
  const aboutTheLog = calls.filter(({ module, path: pathName }) => module === 'audit' || /audit/i.test(pathName));
  expect(aboutTheLog.map(({ call }) => call)).toEqual(['GET /admin/audit']);
});

it('the audit module exports nothing that changes or removes an entry', () => {
  expect(Object.keys(audit).sort()).toEqual(['AUDIT_MESSAGES', 'auditAdminActions', 'auditLogPage', 'auditRouter']);
  expect(Object.keys(audit).filter((name) => /update|remove|delete|erase|edit|replace|clear|drop|set/i.test(name))).toEqual([]);
});

it('the audit module’s code writes only by inserting, and no other server code reaches its collection', () => {
  const WRITES = /\.(update\w*|delete\w*|remove\w*|replace\w*|findOneAnd\w*|findByIdAnd\w*|bulkWrite|drop\w*|save)\(/;
  for (const file of filesUnder(MODULE)) {
    expect({ file: path.relative(SERVER, file), writes: readFileSync(file, 'utf8').match(WRITES)?.[0] ?? null }).toEqual({
      file: path.relative(SERVER, file),
      writes: null,
    });
  }
  const outside = filesUnder(SERVER).filter(
    (file) => !file.startsWith(MODULE + path.sep) && /AuditEntryModel|audit_entries|modules\/audit\/(audit\.model|testing)/.test(readFileSync(file, 'utf8')),
  );
  expect(outside).toEqual([]);
});
