/**
 * An answer that breaks the contract is our bug: logged, and a JSON 500 in the error shape for the caller, never
 * Express's HTML page with a stack trace. A small app with a contract of one call, where the real routes cannot
 * break it on purpose.
 */
import { createRequire } from 'node:module';
import express from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { OpenAPIV3 } from 'express-openapi-validator/dist/framework/types';
import pino from 'pino';
import request from 'supertest';
import { answerContractBreach } from '../../server/lib/contract';
import { useFasterOperationLookup } from '../../server/lib/vendor-fixes/openapi-metadata';
import { useLeanSchemaRegistration } from '../../server/lib/vendor-fixes/openapi-schema-registration';
import { multipartPathMatcher, multipartPaths } from '../../server/lib/contract-routes';
import { OPENAPI_PATH } from '../../server/lib/paths';
import { enterApp } from '../../server/lib/app-entry';
import { AppError, answerLast, errorHandler } from '../../server/lib/errors';

const ERROR = { $ref: '#/components/schemas/Error' };
const SPEC: OpenAPIV3.DocumentV3 = {
  openapi: '3.0.3',
  info: { title: 'one call', version: '1' },
  paths: {
    '/api/v2/thing': {
      get: {
        parameters: [{ name: 'answer', in: 'query', schema: { type: 'string' } }],
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } },
          },
          '400': { description: 'bad', content: { 'application/json': { schema: ERROR } } },
        },
      },
    },
  },
  components: {
    schemas: { Error: { type: 'object', required: ['message', 'code'], properties: { message: { type: 'string' }, code: { type: 'string' } } } },
  },
};

// As the app does: every check below is built by our copy of the validator's schema registration.
useLeanSchemaRegistration();

/** The app: a call that answers what the test asks for, through the validator and our error handling. */
function appWith(onBreach: 'ours' | 'the validator default') {
  const logged: { msg: string; err?: { message: string } }[] = [];
  const logger = pino({ level: 'error' }, { write: (line: string) => void logged.push(JSON.parse(line)) });
  const app = express();
  app.use(
    OpenApiValidator.middleware({
      apiSpec: SPEC,
      validateRequests: true,
      validateResponses: onBreach === 'ours' ? { onError: answerContractBreach(logger) } : true,
      ignorePaths: (path: string) => !path.startsWith('/api/v2'),
    }),
  );
  app.get('/api/v2/thing', (req, res) => {
    if (req.query.answer === 'undeclared') throw new AppError(404, 'not_found', 'There is no such thing.');
    if (req.query.answer === 'misshapen') return void res.json({ name: 42 });
    if (req.query.answer === 'misshapen error') return void res.status(400).json({ message: 'Bad.', code: 400 });
    res.json({ name: 'thing' });
  });
  app.use(errorHandler(logger));
  enterApp(app, { last: answerLast(logger) });
  return { app, logged };
}

const leaksFiles = (text: string) => /node_modules|\/server\/|\bat .+:\d+:\d+|<html|<!DOCTYPE/i.test(text);

describe('an answer that breaks the contract', () => {
  it('when a call answers a status its contract does not declare, then a JSON 500 in the error shape, and the log says what broke', async () => {
    const { app, logged } = appWith('ours');
    const res = await request(app).get('/api/v2/thing?answer=undeclared').expect(500).expect('Content-Type', /json/);
    expect(res.body).toEqual({ message: 'Something went wrong on our side. Please try again.', code: 'internal' });
    expect(leaksFiles(res.text)).toBe(false);
    expect(logged.map((line) => line.err?.message)).toEqual([
      expect.stringMatching(/^The answer 404 to GET \/api\/v2\/thing breaks the contract: no schema defined for status code '404'/),
    ]);
  });

  it('when a call answers a body of the wrong shape, then the same', async () => {
    const { app, logged } = appWith('ours');
    const res = await request(app).get('/api/v2/thing?answer=misshapen').expect(500).expect('Content-Type', /json/);
    expect(res.body.code).toBe('internal');
    expect(logged[0]?.err?.message).toMatch(/^The answer 200 to GET \/api\/v2\/thing breaks the contract: .*name must be string/);
  });

  it('when an error answer breaks its schema, which the call reaches by a $ref into components, then the same', async () => {
    const { app, logged } = appWith('ours');
    await request(app).get('/api/v2/thing?answer=misshapen%20error').expect(500);
    expect(logged[0]?.err?.message).toMatch(/^The answer 400 to GET \/api\/v2\/thing breaks the contract: .*code must be string/);
  });

  it('when the answer keeps the contract, then it goes out as it is', async () => {
    const { app, logged } = appWith('ours');
    await request(app).get('/api/v2/thing').expect(200, { name: 'thing' });
    expect(logged).toEqual([]);
  });
});

describe("Express's own last handler", () => {
  it('when a middleware hands on an error after the error handler has answered it, then JSON, never the HTML stack page', async () => {
    // The validator's default: it calls `next(err)` from its hook on the error handler's own answer.
    const { app } = appWith('the validator default');
    const res = await request(app).get('/api/v2/thing?answer=undeclared').expect(500).expect('Content-Type', /json/);
    expect(res.body).toMatchObject({ code: 'internal' });
    expect(leaksFiles(res.text)).toBe(false);
  });

  it('when nothing answers a request, then a JSON 404', async () => {
    const { app } = appWith('ours');
    const res = await request(app).get('/elsewhere').expect(404).expect('Content-Type', /json/);
    expect(res.body).toMatchObject({ code: 'not_found', message: 'Nothing here: GET /elsewhere' });
  });
});

describe('finding the operation of a request (our faster copy of the validator lookup)', () => {
  /** The package's own lookup, kept before ours replaces it, and ours. */
  const metadataModule = createRequire(__filename)('express-openapi-validator/dist/middlewares/openapi.metadata') as { applyOpenApiMetadata: Lookup };
  type Lookup = (context: unknown, responseApiDoc: unknown) => (req: unknown, res: unknown, next: () => void) => void;
  const packaged = metadataModule.applyOpenApiMetadata;
  useFasterOperationLookup();
  const faster = metadataModule.applyOpenApiMetadata;

  /** The validator's context for the real contract, as the validator builds it for its first request. */
  async function contractContext(): Promise<{ context: { apiDoc: { paths: Record<string, Record<string, unknown>> } }; responseApiDoc: unknown }> {
    let captured: { context: never; responseApiDoc: unknown } | undefined;
    metadataModule.applyOpenApiMetadata = (context, responseApiDoc) => {
      captured = { context: context as never, responseApiDoc };
      return faster(context, responseApiDoc);
    };
    const app = express();
    app.use(OpenApiValidator.middleware({ apiSpec: OPENAPI_PATH, validateRequests: false, validateResponses: true }));
    app.use((_req, res) => void res.status(204).end());
    await request(app).get('/api/v2/tag/get-all');
    metadataModule.applyOpenApiMetadata = faster;
    return captured!;
  }

  /** What a lookup makes of one request: the operation and path values it sets, or the error it throws. */
  function outcome(lookup: ReturnType<Lookup>, method: string, url: string) {
    const pathname = url.split('?')[0]!;
    const req: Record<string, unknown> = { method, url, originalUrl: url, path: pathname, baseUrl: '', params: {}, app: { enabled: () => false } };
    let nextCalled = false;
    try {
      lookup(req, {}, () => (nextCalled = true));
    } catch (err) {
      const { status, message, headers } = err as { status: number; message: string; headers?: unknown };
      return { thrown: { status, message, headers } };
    }
    return { nextCalled, openapi: req.openapi, params: req.params };
  }

  it('when any request comes, then it finds what the package finds: operation, path values, 404, 405 and malformed paths', async () => {
    const { context, responseApiDoc } = await contractContext();
    const theirs = packaged(context, responseApiDoc);
    const ours = faster(context, responseApiDoc);
    const requests: [string, string][] = [];
    for (const [path, item] of Object.entries(context.apiDoc.paths)) {
      const filled = `/api/v2${path.replace(/\{[^}]+\}/g, 'a1B2')}`;
      for (const method of ['GET', 'POST', 'PUT', 'DELETE']) requests.push([method, filled]);
      requests.push([Object.keys(item).includes('get') ? 'GET' : 'POST', `${filled}/`]);
      requests.push(['GET', filled.toUpperCase()]);
      requests.push(['GET', `${path.includes('{') ? `/api/v2${path.replace(/\{[^}]+\}/g, 'caf%C3%A9%20x')}` : filled}?x=1`]);
      if (path.includes('{')) requests.push(['GET', `/api/v2${path.replace(/\{[^}]+\}/g, '%E0%A4%A')}`]);
    }
    requests.push(['GET', '/api/v2/no-such-call'], ['GET', '/api/v2'], ['GET', '/elsewhere'], ['POST', '/api/v2/knack/add/extra']);
    expect(requests.length).toBeGreaterThan(400);
    for (const [method, url] of requests) expect([method, url, outcome(ours, method, url)]).toEqual([method, url, outcome(theirs, method, url)]);
    // Some of each kind were among them.
    const kinds = new Set(requests.map(([method, url]) => JSON.stringify(outcome(ours, method, url).thrown?.status ?? 'found')));
    expect([...kinds].sort()).toEqual(['"found"', '400', '404', '405'].sort());
  });
});

describe('the schemas the validator hands to ajv (our copy of its registration)', () => {
  const util = createRequire(__filename)('express-openapi-validator/dist/middlewares/util') as {
    useAjvCache(ajv: unknown, schema: Record<string, unknown>, key: string): unknown;
  };
  /** What ajv is given for a check whose schema carries `contract`: the keys its walk would go through. */
  function keysAjvWalks(contract: { paths: object; components: object }) {
    const walked: string[][] = [];
    const ajv = { getSchema: () => undefined, addSchema: (schema: object) => void walked.push(Object.keys(schema)) };
    const schema: Record<string, unknown> = { properties: { body: { $ref: '#/components/schemas/Thing' } }, ...contract };
    util.useAjvCache(ajv, schema, 'POST-/thing');
    expect(schema.components).toBe(contract.components);
    return walked;
  }

  it('when the contract names no schema, then ajv walks the check’s own part, not the contract it carries for $refs', () => {
    const contract = { paths: { '/thing': {} }, components: { schemas: { Thing: { type: 'object' } } } };
    expect(keysAjvWalks(contract)).toEqual([['properties']]);
  });

  it('when a part of the contract names a schema ($id or an anchor), then ajv walks that part, as the package does', () => {
    const named = { paths: { '/thing': {} }, components: { schemas: { Thing: { $id: 'https://knack.example/thing', type: 'object' } } } };
    expect(keysAjvWalks(named)).toEqual([['properties', 'components']]);
    const anchored = { paths: { '/thing': { post: { requestBody: { content: { 'application/json': { schema: { $anchor: 'thing' } } } } } } }, components: {} };
    expect(keysAjvWalks(anchored)).toEqual([['properties', 'paths']]);
  });
});

describe('the upload calls the validator leaves to the upload router', () => {
  it('are read from the contract: every operation with a multipart body, under the server URL, and nothing else', () => {
    expect([...multipartPaths(OPENAPI_PATH)].sort()).toEqual([
      '/api/v2/content/file/{id}/audio',
      '/api/v2/content/file/{id}/image',
      '/api/v2/content/upload-audio',
      '/api/v2/content/upload-photo',
      '/api/v2/user/upload-header-image',
      '/api/v2/user/upload-photo',
    ]);
  });

  it('are matched with their path parameters as any one segment, and nothing else', () => {
    const isUpload = multipartPathMatcher(OPENAPI_PATH);
    expect(isUpload('/api/v2/content/file/5f0c1e2d3c4b5a6978877665/image')).toBe(true);
    expect(isUpload('/api/v2/content/upload-photo')).toBe(true);
    expect(isUpload('/api/v2/content/file/5f0c1e2d3c4b5a6978877665/image/more')).toBe(false);
    expect(isUpload('/api/v2/content/file//image')).toBe(false);
    expect(isUpload('/api/v2/content/versions/5f0c1e2d3c4b5a6978877665')).toBe(false);
    expect(isUpload('/api/v2/content/upload-photoX')).toBe(false);
  });
});
