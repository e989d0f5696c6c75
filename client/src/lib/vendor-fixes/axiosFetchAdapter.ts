/**
 * Stands in for axios's fetch adapter (`axios/lib/adapters/fetch.js`) in the SPA's build (client/build/vendorFixes.ts).
 * The SPA sends every call through XMLHttpRequest, axios's first choice in a browser, so that adapter is never
 * used. Yet its module probes the browser as it loads (a Request with a stream body, a Response, an encoder), which
 * costs a slow phone tens of milliseconds before the first paint. Axios reads `false` as "this adapter is not
 * available here".
 */
export const getFetch = (): false => false;
