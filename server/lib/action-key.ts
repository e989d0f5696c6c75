/**
 * The key of the action a request does, when its client sent an Idempotency-Key with a call that moves money or
 * credits (set by modules/idempotency once it has taken the key for this request): `{userId}:{SHA-256 of the key}`.
 *
 * A handler whose work has no unique key of its own (an admin's correction of credits) may build its record's `_id`
 * from it, so that the same action, run again after a process died half-way (its key taken over once its lease
 * ended), finds its record already written instead of writing a second one.
 */
declare global {
  // Express's request type is extended where Express declares it: in its global namespace.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      actionKey?: string;
    }
  }
}

export {};
