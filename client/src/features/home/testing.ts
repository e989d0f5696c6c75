/**
 * What tests use of this feature beyond its index.ts: the page itself, rendered without the route table's lazy
 * loading. Production code never imports this file (the linter refuses it): the rest of the client uses the index.
 */
export { default as HomePage } from './pages/HomePage';
