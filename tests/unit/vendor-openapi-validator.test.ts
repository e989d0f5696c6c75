/**
 * Our two changes to express-openapi-validator's code (server/lib/vendor-fixes): they are for the version
 * package.json pins exactly, they refuse to run on another, and inside the real validator, on the real contract,
 * each still does what it is for. If the package stopped calling the function we replace, these tests fail.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import request from 'supertest';
import { useFasterOperationLookup } from '../../server/lib/vendor-fixes/openapi-metadata';
import { useLeanSchemaRegistration } from '../../server/lib/vendor-fixes/openapi-schema-registration';
import { PATCHED_VERSIONS, installedVersion, requirePatchedVersion } from '../../server/lib/vendor-fixes/patched-versions';
import { OPENAPI_PATH } from '../../server/lib/paths';

const REPO = path.resolve(__dirname, '../..');
const vendor = createRequire(__filename);
/** The validator's own modules, whose exports our changes replace, and the path-to-regexp its lookup calls. */
const metadataModule = vendor('express-openapi-validator/dist/middlewares/openapi.metadata') as { applyOpenApiMetadata: unknown };
const utilModule = vendor('express-openapi-validator/dist/middlewares/util') as {
  useAjvCache(ajv: unknown, schema: Record<string, unknown>, key: string): unknown;
};
const pathToRegexpModule = createRequire(vendor.resolve('express-openapi-validator/dist/middlewares/openapi.metadata'))('path-to-regexp') as {
  pathToRegexp: (...args: unknown[]) => unknown;
};
const packagedLookup = metadataModule.applyOpenApiMetadata;
const packagedRegistration = utilModule.useAjvCache;

/**
 * A validator on the real contract, as the app sets it up, in front of a call that answers 204. It skips checking
 * the contract itself (the API lint does that), which only slows each test down.
 */
function validatedApp() {
  const app = express();
  app.use(express.json());
  app.use(
    OpenApiValidator.middleware({
      apiSpec: OPENAPI_PATH,
      validateRequests: { allowUnknownQueryParameters: false },
      validateSecurity: false,
      validateApiSpec: false,
    }),
  );
  app.use((_req, res) => void res.status(204).end());
  app.use((err: { status?: number }, _req: express.Request, res: express.Response, _next: express.NextFunction) => void res.status(err.status ?? 500).end());
  return app;
}

afterEach(() => {
  jest.restoreAllMocks();
  metadataModule.applyOpenApiMetadata = packagedLookup;
  utilModule.useAjvCache = packagedRegistration;
});

describe('the version of express-openapi-validator our changes are written for', () => {
  it('is the one installed, and package.json pins exactly that one', () => {
    const manifest = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(PATCHED_VERSIONS['express-openapi-validator']).toBe('5.6.2');
    expect(manifest.dependencies['express-openapi-validator']).toBe('5.6.2');
    expect(installedVersion('express-openapi-validator', __filename)).toBe('5.6.2');
  });

  it('when another version is installed, then the server refuses to start, naming the change and both versions', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'knack-vendor-version-'));
    try {
      mkdirSync(path.join(root, 'node_modules', 'express-openapi-validator'), { recursive: true });
      writeFileSync(
        path.join(root, 'node_modules', 'express-openapi-validator', 'package.json'),
        JSON.stringify({ name: 'express-openapi-validator', version: '5.6.3' }),
      );
      expect(() => requirePatchedVersion('express-openapi-validator', 'server/lib/vendor-fixes/openapi-metadata.ts', path.join(root, 'server.js'))).toThrow(
        'server/lib/vendor-fixes/openapi-metadata.ts changes express-openapi-validator 5.6.2, but 5.6.3 is installed: compare the change with the code of 5.6.3, ' +
          'then update its version in server/lib/vendor-fixes/patched-versions.ts and the exact pin in package.json.',
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('finding the operation of a request (our faster lookup)', () => {
  /** How many route patterns the package's path-to-regexp compiles while `requests` calls go through the validator. */
  async function patternsCompiledFor(requests: number): Promise<number> {
    const app = validatedApp();
    // The first request builds the validator; only the ones after it are counted.
    await request(app).get('/api/v2/tag/get-all').expect(204);
    const compile = jest.spyOn(pathToRegexpModule, 'pathToRegexp');
    for (let sent = 0; sent < requests; sent += 1) await request(app).get('/api/v2/tag/get-all').expect(204);
    await request(app).get('/api/v2/no-such-call').expect(404);
    return compile.mock.calls.length;
  }

  it("with the package's own lookup, every request compiles route patterns again (what our lookup is for)", async () => {
    expect(await patternsCompiledFor(3)).toBeGreaterThan(3);
  });

  it('when our lookup is in place, then the validator compiles no pattern while it answers requests, and still finds each operation', async () => {
    useFasterOperationLookup();
    expect(await patternsCompiledFor(3)).toBe(0);
  });
});

describe('the schemas the validator hands to ajv (our lean registration)', () => {
  /** The keys ajv's walk would go through, for each check the validator builds answering one call with a body. */
  async function schemasRegistered(): Promise<{ walked: string[]; carriesComponents: boolean }[]> {
    const registered = jest.spyOn(utilModule, 'useAjvCache');
    const app = validatedApp();
    await request(app).post('/api/v2/auth/signin').send({ email: 'ann@example.com', password: 'secret-password' }).expect(204);
    // The body's schema is a $ref into components, which still resolves: a field it does not have is refused.
    await request(app).post('/api/v2/auth/signin').send({ email: 'ann@example.com', password: 'secret-password', role: 'admin' }).expect(400);
    return registered.mock.calls.map(([, schema]) => ({ walked: Object.keys(schema), carriesComponents: schema.components !== undefined }));
  }

  it("with the package's own registration, ajv walks the whole contract for every check (what our registration is for)", async () => {
    const schemas = await schemasRegistered();
    expect(schemas.length).toBeGreaterThan(0);
    for (const schema of schemas) expect(schema.walked).toEqual(expect.arrayContaining(['paths', 'components']));
  });

  it("when our registration is in place, then ajv walks only each check's own part, and the contract is still there for $refs", async () => {
    useLeanSchemaRegistration();
    const schemas = await schemasRegistered();
    expect(schemas.length).toBeGreaterThan(0);
    for (const schema of schemas) {
      expect(schema.walked).not.toContain('paths');
      expect(schema.walked).not.toContain('components');
      expect(schema.carriesComponents).toBe(true);
    }
  });
});
