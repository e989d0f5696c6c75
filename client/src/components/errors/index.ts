export { ErrorPage, NOT_FOUND_TITLE } from './ErrorPage';
export type { ErrorPageProps } from './ErrorPage';
export { ErrorPageGuard, ErrorPageFailure } from './ErrorPageGuard';
export { RouteErrorBoundary, ErrorScreen, errorPageProps } from './RouteErrorBoundary';
export { withChunkReload, claimChunkReload, isChunkLoadError, CHUNK_RELOAD_KEY, CHUNK_RELOAD_INTERVAL_MS } from './chunkReload';
