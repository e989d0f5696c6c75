/**
 * Records every admin action that changes something, without the handler having to remember: for each request the
 * contract validator matched to an operation marked `x-admin: true` that is not a read, the audit entry is written
 * when the handler answers with a success, and only then does the answer leave. A refused or failed call answers
 * an error and leaves no entry.
 *
 * Written before the answer, not after it: a client that saw success can count on the entry. If the entry cannot be
 * written, the client is answered 500 instead, and the action (already done) is retried or checked by the admin;
 * the log may then lack an action the client was told failed, never one it was told succeeded.
 */
import type { Request, RequestHandler, Response } from 'express';
import { auditDetailsOf } from '../../lib/audit-details';
import { AppError, errorHandler } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { recordAuditEntry } from './audit.service';

/** What the contract validator leaves on a request it matched: the operation as the contract writes it. */
type Matched = Request & { openapi?: { schema?: { operationId?: string; 'x-admin'?: boolean; 'x-read-only'?: boolean } } };

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The answer when the entry could not be written: the generic words of every unexpected failure. */
const NOT_RECORDED = 'Something went wrong on our side. Please try again.';

/** The audit log's recorder: mount it after the contract validator, before the modules' routers. */
export function auditAdminActions(logger: Logger): RequestHandler {
  const log = logger.child({ module: 'audit' });
  const answerError = errorHandler(logger);
  return (req, res, next) => {
    const operation = (req as Matched).openapi?.schema;
    // `x-read-only` marks an admin call sent as a POST that changes nothing (a preview): there is nothing to record.
    if (operation?.['x-admin'] !== true || operation['x-read-only'] === true || READS.has(req.method) || !operation.operationId) return next();
    const action = operation.operationId;
    const answer = res.json.bind(res) as Response['json'];
    let recorded = false;
    res.json = (body?: unknown) => {
      const success = res.statusCode >= 200 && res.statusCode < 300;
      if (recorded || !success) return answer(body);
      if (!req.auth) {
        // Every admin call is signed in; one that answered success without a caller cannot name who acted.
        log.error({ action, reqId: req.id }, 'an admin call answered success without a signed-in caller: not recorded');
        return answer(body);
      }
      recorded = true;
      res.json = answer;
      const facts = {
        at: new Date(),
        actorId: req.auth.userId,
        actorEmail: req.auth.email,
        action,
        ip: req.ip ?? req.socket.remoteAddress ?? 'unknown',
        userAgent: req.get('user-agent')?.slice(0, 500) ?? null,
        requestId: req.id ?? null,
      };
      const details = auditDetailsOf(res);
      if (!details) log.warn({ action, reqId: req.id }, 'an admin action was recorded without its target: call auditDetails(res, …) in its handler');
      recordAuditEntry(facts, details).then(
        () => answer(body),
        (err: unknown) => {
          log.error({ err, action, reqId: req.id }, 'the audit entry of an admin action could not be written; the client is answered 500');
          // Whatever the database said (a duplicate key would read as a 409 conflict), the client is told it failed.
          answerError(new AppError(500, 'internal', NOT_RECORDED), req, res, () => undefined);
        },
      );
      return res;
    };
    next();
  };
}
