/**
 * lib/app-entry: the one wrap of the function every request enters an Express app by. What answers first is
 * asked before Express sets the request up; what answers last replaces Express's own final handler.
 */
import express from 'express';
import request from 'supertest';
import { enterApp } from '../../server/lib/app-entry';

function appWithRoute() {
  const app = express();
  const reached: string[] = [];
  app.get('/seen', (req, res) => {
    reached.push(req.path);
    res.json({ from: 'express' });
  });
  app.get('/fails', () => {
    throw new Error('nobody handles this');
  });
  return { app, reached };
}

describe('the app entry', () => {
  it('when the first answer takes a request, then Express never sees it; when it declines, Express answers', async () => {
    const { app, reached } = appWithRoute();
    enterApp(app, {
      first: (req, res) => {
        if (req.url !== '/stored') return false;
        res.writeHead(200, { 'content-type': 'text/plain' }).end('stored');
        return true;
      },
    });
    expect((await request(app).get('/stored').expect(200)).text).toBe('stored');
    expect(reached).toEqual([]);
    expect((await request(app).get('/seen').expect(200)).body).toEqual({ from: 'express' });
    expect(reached).toEqual(['/seen']);
  });

  it('when a request leaves the app unanswered or with an error nobody handled, then the last answer answers it', async () => {
    const { app } = appWithRoute();
    enterApp(app, {
      last: (req, res) => (err) => {
        res.status(err ? 500 : 404).json({ last: err ? (err as Error).message : `nothing at ${req.url}` });
      },
    });
    expect((await request(app).get('/nowhere').expect(404)).body).toEqual({ last: 'nothing at /nowhere' });
    expect((await request(app).get('/fails').expect(500)).body).toEqual({ last: 'nobody handles this' });
  });

  it('when the entry of an app is wrapped a second time, then it refuses: one wrap holds both answers', () => {
    const { app } = appWithRoute();
    enterApp(app, { first: () => false });
    expect(() => enterApp(app, { last: () => () => undefined })).toThrow('The entry of this app is wrapped already: give enterApp both answers at once.');
  });
});
