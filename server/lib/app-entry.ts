/**
 * The one function every request enters an Express app by (`app(req, res)` calls `app.handle`), whichever way the
 * app is served (`listen`, `http.createServer(app)`, supertest), wrapped in one place:
 * - `first` may answer a request before Express sets it up (its request and response prototypes, the router's
 *   walk), which no middleware can do: a middleware placed first runs after that set-up, and the set-up is most
 *   of the cost of a ready-made answer;
 * - `last` replaces Express's own final handler, which a request reaches unanswered, or with an error no error
 *   handler answered.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express, NextFunction, Request, Response } from 'express';

export interface AppEntry {
  /** Answers the request and says true, or says false to let it into the app. */
  first?: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** The final handler of one request: called with the error that nobody answered, or with none. */
  last?: (req: Request, res: Response) => (err?: unknown) => void;
}

interface Handles {
  handle(req: IncomingMessage, res: ServerResponse, next?: NextFunction): void;
}

const wrapped = new WeakSet<Express>();

export function enterApp(app: Express, { first, last }: AppEntry): void {
  if (wrapped.has(app)) throw new Error('The entry of this app is wrapped already: give enterApp both answers at once.');
  wrapped.add(app);
  const entry = app as unknown as Handles;
  const handle = entry.handle.bind(app);
  entry.handle = (req, res, next) => {
    if (first?.(req, res)) return;
    // Express's final handler runs when no `next` is given (the app is not mounted in another).
    handle(req, res, next ?? (last && (last(req as Request, res as Response) as NextFunction)));
  };
}
