/**
 * What tests use of this feature beyond its index.ts: the checkout's page change, which a test replaces to stay on the
 * page. Production code never imports this file (the linter refuses it): the rest of the client uses the index.
 */
export { checkout } from './checkout';
