/**
 * What tests use of this module beyond its index.ts: the versions' and the links' collections and the limits of
 * file changes.
 * Production code never imports this file (the linter refuses it): other modules use the index.
 */
export { ContentVersionModel } from './contents.model';
export { FILE_CHANGE_LIMIT, STALLED_SWITCH_MS } from './contents.files';
export { ContentLinkModel } from './contents.links';
