/**
 * Ids lower-cased where a request is parsed, as the contract says which values are ids: path and query parameters
 * and body fields at any depth (through `$ref`, arrays, `allOf`), however the id pattern is written, and nothing
 * else (a password of 24 hex letters stays as typed). A small app with a contract of its own, through the real
 * validator, with the handler behind a router that reads its parameters from the URL again, as the app's do.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express, { Router } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import request from 'supertest';
import { stringify } from 'yaml';
import { canonicalIds } from '../../server/lib/canonical-ids';

const ID = '64B0C0FFEE0000000000ABCD';
const PASSWORD = 'ABCDEF0123456789ABCDEF01';
const OK = { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } };

const CONTRACT = {
  openapi: '3.0.3',
  info: { title: 'ids', version: '1' },
  servers: [{ url: '/api/v2' }],
  paths: {
    '/thing/{id}/for/{userId}': {
      parameters: [{ $ref: '#/components/parameters/IdPath' }],
      post: {
        parameters: [
          { name: 'userId', in: 'path', required: true, schema: { type: 'string', pattern: '^([0-9a-fA-F]{24}|guest)$' } },
          { name: 'ownerId', in: 'query', schema: { $ref: '#/components/schemas/ObjectId' } },
          { name: 'ids', in: 'query', schema: { type: 'array', items: { $ref: '#/components/schemas/ObjectId' } } },
          { name: 'note', in: 'query', schema: { type: 'string' } },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                allOf: [
                  { $ref: '#/components/schemas/Owned' },
                  {
                    type: 'object',
                    properties: {
                      password: { type: 'string' },
                      messageId: { type: 'string', pattern: '^[0-9a-fA-F]{24}(-[1-9][0-9]{0,8})?$' },
                      members: { type: 'array', items: { type: 'object', properties: { memberId: { $ref: '#/components/schemas/ObjectId' } } } },
                    },
                  },
                ],
              },
            },
          },
        },
        responses: OK,
      },
    },
  },
  components: {
    parameters: { IdPath: { name: 'id', in: 'path', required: true, schema: { $ref: '#/components/schemas/ObjectId' } } },
    schemas: {
      ObjectId: { type: 'string', pattern: '^[0-9a-fA-F]{24}$' },
      Owned: { type: 'object', properties: { ownerId: { $ref: '#/components/schemas/ObjectId' } } },
    },
  },
};

function appWithContract() {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'knack-ids-')), 'openapi.yaml');
  writeFileSync(file, stringify(CONTRACT));
  const app = express();
  app.set('query parser', 'extended');
  app.use(express.json());
  app.use(OpenApiValidator.middleware({ apiSpec: file, validateRequests: { coerceTypes: false }, validateResponses: false }), canonicalIds(file));
  const router = Router();
  router.post('/thing/:id/for/:userId', (req, res) => {
    res.json({ params: req.params, query: req.query, body: req.body as unknown });
  });
  app.use('/api/v2', router);
  return app;
}

describe('canonicalIds', () => {
  it('when ids come in capitals in the path, the query and the body, then the handler sees them in lower case, and nothing else changes', async () => {
    const res = await request(appWithContract())
      .post(`/api/v2/thing/${ID}/for/${ID}?ownerId=${ID}&ids=${ID}&ids=${ID.toLowerCase()}&note=${PASSWORD}`)
      .send({ ownerId: ID, password: PASSWORD, messageId: `${ID}-12`, members: [{ memberId: ID }, { memberId: ID }] })
      .expect(200);
    const id = ID.toLowerCase();
    expect(res.body).toEqual({
      params: { id, userId: id },
      query: { ownerId: id, ids: [id, id], note: PASSWORD },
      body: { ownerId: id, password: PASSWORD, messageId: `${id}-12`, members: [{ memberId: id }, { memberId: id }] },
    });
  });

  it('when a parameter takes a word besides an id, then the word passes as it is', async () => {
    const res = await request(appWithContract()).post(`/api/v2/thing/${ID}/for/guest/`).send({}).expect(200);
    expect(res.body.params).toEqual({ id: ID.toLowerCase(), userId: 'guest' });
  });
});
