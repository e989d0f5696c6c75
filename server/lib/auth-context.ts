/** Who is calling: set on the request by the session check (modules/users/users.guards.ts) for a signed-in member. */
import type { Schemas } from './openapi-types';

/** A member's role: an admin is a member whose email is in the configured admin list. */
export type Role = Schemas['Role'];

export interface AuthContext {
  userId: string;
  email: string;
  role: Role;
}

declare global {
  // Express's request type is extended where Express declares it: in its global namespace.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      auth?: AuthContext;
    }
  }
}
