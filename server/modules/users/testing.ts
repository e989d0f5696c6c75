/**
 * What tests (and the seed and bench scripts) use of this module beyond its index.ts: the former usernames' model,
 * the member lookup's rate limit and the member keys' model. Production code never imports this file (the linter refuses it): other modules use
 * the index.
 */
export { FormerUsernameModel } from './users.identity';
export { LOOKUP_LIMIT } from './users.routes';
export { MemberKeyModel } from './users.keys';
