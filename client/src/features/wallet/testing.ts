/**
 * What tests use of this feature beyond its index.ts: the history list's hook. Production code never imports this file
 * (the linter refuses it): the rest of the client uses the index.
 */
export { useHistory } from './hooks/useHistory';
