/**
 * Who is calling: set on the request by the session check (modules/users/users.guards.ts) for a signed-in member,
 * or by the API key gate (modules/api-keys) for a member's program calling with one of their keys.
 */
import type { Schemas } from './openapi-types';

/** A member's role: an admin is a member whose email is in the configured admin list. */
export type Role = Schemas['Role'];

/** What an API key may do; each operation a key may call names the scopes it needs (`x-key-scopes` in the contract). */
export type ApiKeyScope = Schemas['ApiKeyScope'];

export interface AuthContext {
  userId: string;
  email: string;
  role: Role;
  /** Set when the caller is one of the member's API keys: the key's id and scopes. Such a caller is never an admin. */
  apiKey?: { id: string; scopes: ApiKeyScope[] };
}

/** What every API key starts with, so that a key is told from an access token by its first characters. */
export const API_KEY_PREFIX = 'knk_';

/** The API key an `Authorization` header carries (`Bearer knk_…`), or undefined when it carries none. */
export function apiKeyIn(authorization: string | undefined): string | undefined {
  if (!authorization?.startsWith('Bearer ')) return undefined;
  const credential = authorization.slice(7).trim();
  return credential.startsWith(API_KEY_PREFIX) ? credential : undefined;
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
