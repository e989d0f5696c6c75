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
import { answerContractBreach, compileRoutePatternsOnce } from '../../server/lib/contract';
import { multipartPaths } from '../../server/lib/contract-routes';
import { OPENAPI_PATH } from '../../server/lib/paths';
import { AppError, answerErrorsLast, errorHandler } from '../../server/lib/errors';

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
    res.json({ name: 'thing' });
  });
  app.use(errorHandler(logger));
  answerErrorsLast(app, logger);
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

describe('finding the operation of a request', () => {
  it('when requests keep coming, then the validator compiles each route pattern once, and path values still arrive', async () => {
    // Counts every compilation the validator asks of path-to-regexp, under the once-only layer.
    const exported = createRequire(__filename)('path-to-regexp') as { pathToRegexp: (path: unknown, options?: unknown) => unknown };
    const real = exported.pathToRegexp;
    const compiled: unknown[] = [];
    exported.pathToRegexp = (path, options) => {
      compiled.push(path);
      return real(path, options);
    };
    compileRoutePatternsOnce();
    const app = express();
    const thing = { description: 'ok', content: { 'application/json': { schema: { type: 'object' as const } } } };
    const spec: OpenAPIV3.DocumentV3 = {
      ...SPEC,
      paths: {
        '/api/v2/first': { get: { responses: { '200': thing } } },
        '/api/v2/things/{id}': { get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': thing } } },
      },
    };
    app.use(OpenApiValidator.middleware({ apiSpec: spec, validateRequests: true }));
    app.get('/api/v2/first', (_req, res) => void res.json({}));
    app.get('/api/v2/things/:id', (req, res) => void res.json({ id: req.params.id }));

    await request(app).get('/api/v2/things/a1').expect(200, { id: 'a1' });
    const afterFirst = compiled.length;
    expect(afterFirst).toBeGreaterThan(0);
    for (const id of ['b2', 'c3', 'd4']) await request(app).get(`/api/v2/things/${id}`).expect(200, { id });
    await request(app).get('/api/v2/first').expect(200, {});
    await request(app).get('/api/v2/first').expect(200, {});
    expect(compiled.length).toBe(afterFirst);
  });
});

describe('the upload calls the validator leaves to the upload router', () => {
  it('are read from the contract: every operation with a multipart body, under the server URL, and nothing else', () => {
    expect([...multipartPaths(OPENAPI_PATH)].sort()).toEqual([
      '/api/v2/content/upload-audio',
      '/api/v2/content/upload-photo',
      '/api/v2/user/upload-header-image',
      '/api/v2/user/upload-photo',
    ]);
  });
});
