import express, { Router, type RequestHandler } from 'express';
import type { AuthConfig } from '../../config';
import { AppError } from '../../lib/errors';
import type { ApiRequest, ApiResponse } from '../../lib/openapi-types';
import { optionalAuth } from '../users';
import { EVENTS_BODY_LIMIT_BYTES, EVENTS_MESSAGES, type EventsService } from './events.service';

/** Where the events call is served, for the body limit that must come before the app's JSON parser. */
export const EVENTS_PATH = '/api/v2/events';

/**
 * The events call's own JSON parser, mounted before the app's (which reads up to 1 MB): a larger body is refused with
 * 413 once 32 KB have arrived, before it is parsed, validated or stored.
 */
export function eventsBodyLimit(): RequestHandler {
  const parse = express.json({ limit: EVENTS_BODY_LIMIT_BYTES });
  return (req, res, next) =>
    parse(req, res, (err?: unknown) =>
      next((err as { type?: string } | undefined)?.type === 'entity.too.large' ? new AppError(413, 'payload_too_large', EVENTS_MESSAGES.tooLarge) : err),
    );
}

/** `DNT: 1` (Do Not Track) or `Sec-GPC: 1` (Global Privacy Control): the person asked not to be tracked. */
const asksNotToBeTracked = (req: express.Request) => req.get('dnt')?.trim() === '1' || req.get('sec-gpc')?.trim() === '1';

export function eventsRouter(config: AuthConfig, events: EventsService): Router {
  const router = Router();
  router.post(
    '/events',
    // Before the session check, the limits and the store: a request of someone who asked not to be tracked is not read.
    (req, res: ApiResponse<'recordEvents'>, next) => (asksNotToBeTracked(req) ? void res.status(202).json({ stored: 0 }) : next()),
    optionalAuth(config),
    async (req: ApiRequest<'recordEvents'>, res: ApiResponse<'recordEvents'>) => {
      const { answer, outgoing } = await events.record(req.body, req.auth, req.ip ?? 'unknown');
      res.status(202).json(answer);
      events.forward(outgoing);
    },
  );
  return router;
}
