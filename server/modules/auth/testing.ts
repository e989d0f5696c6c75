/**
 * What tests (and the seed and bench scripts) use of this module beyond its index.ts: the login and signup rate
 * limits, and a session made without a login. Production code never imports this file (the linter refuses it): other
 * modules use the index.
 */
export { LOGIN_LIMITS, SIGNUP_LIMITS } from './auth.service';
export { createSession } from './auth.tokens';
