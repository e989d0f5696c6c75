/**
 * What tests use of this feature beyond its index.ts: the pages themselves, rendered without the route table's lazy
 * loading. Production code never imports this file (the linter refuses it): the rest of the client uses the index.
 */
export { default as ExplorePage } from './pages/ExplorePage';
export { default as SearchPage } from './pages/SearchPage';
export { default as ViewAllPage } from './pages/ViewAllPage';
