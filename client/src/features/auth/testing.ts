/**
 * What tests use of this feature beyond its index.ts: the Google credential action and the step run after a sign-in.
 * Production code never imports this file (the linter refuses it): the rest of the client uses the index.
 */
export { googleCredentialReceived } from './auth.slice';
export { afterSignIn } from './auth.saga';
