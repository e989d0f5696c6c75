/**
 * features/analytics, the part another feature's lazy page reuses, apart from the index (whose charts load with the
 * analytics modal): the table of a member's plays and earnings by embedding site, which the wallet shows.
 */
export { EmbedHostsTable, type HostsPeriod } from './components/EmbedHostsTable';
