/**
 * The calls the scale benchmark (scripts/bench-scale.ts) measures: every `GET` of the contract that a page of the app
 * calls (through the generated client's hooks, client/src/features/*), and every `GET` an integrator may poll with
 * an API key (`x-key-scopes`). Each is asked as the one who asks it in the app: a typical member, a heavy artist (the
 * member with the most followers), an admin, an integrator's key, or no one, about a typical piece, the artist's
 * piece, a thread of the member's. tests/unit/bench-scale-calls.test.ts fails when a page's `GET` has no entry here.
 */

/** Who sends the call: a bearer token of that member, an API key of the artist's (`key`), or nothing. */
export type Caller = 'member' | 'artist' | 'admin' | 'key' | 'anonymous';

/** What the calls are about, picked in each database by the same rules (bench-scale.ts `pickFixture`). */
export interface Fixture {
  member: { id: string; username: string };
  /** The member with the most followers: the most pieces, knacks and followers come with it. */
  artist: { id: string; username: string };
  /** A listed piece of another artist with a few knacks. */
  piece: { id: string; slug: string; ownerUsername: string };
  /** One of the artist's own pieces (what its owner opens to edit, price or analyse). */
  artistPiece: { id: string };
  mainTag: { id: string; label: string };
  subTag: { id: string; label: string };
  /** A thread of the member's (the benchmark writes one to the artist before measuring). */
  threadId: string;
  /** A project of the artist's, holding `artistPiece` (the benchmark makes it before measuring). */
  projectId: string;
  /** One of the member's ledger entries (a knack). */
  entryId: string;
  /** The month before the current one, `yyyy-mm`. */
  lastMonth: string;
}

export interface ScaleCall {
  operationId: string;
  /** Where the app calls it (or "integrators" for a call only an API key makes). */
  pages: string;
  as: Caller;
  /** The request's path under /api/v2, with its query. */
  path: (f: Fixture) => string;
  /**
   * Why this call may still read a collection whole (tests/api/bounded-reads.test.ts fails on a scan of a call
   * without one, and on a reason that no longer holds). Only for calls no member's page makes, or downloads.
   */
  scans?: string;
  /**
   * A call limited per caller (a download per clock hour, the member search and a proof per minute): its warm-up and
   * measured requests stay within this many, so that no answer measured is the limit's 429, and the load leaves it
   * out. (A second run within the same clock hour still meets an hourly limit.)
   */
  limitPerCaller?: number;
}

/**
 * The limits per caller: the statement's (history.statement.ts STATEMENT_LIMIT) and the data export's
 * (account.service.ts DOWNLOAD_LIMIT) per hour, the member search's (users.routes.ts MEMBER_SEARCH_LIMIT) and a
 * proof's (anchors.service.ts PROOF_LIMIT) per minute.
 */
const STATEMENTS_PER_HOUR = 20;
const EXPORTS_PER_HOUR = 10;
const MEMBER_SEARCHES_PER_MINUTE = 60;
const PROOFS_PER_MINUTE = 30;

const ADMIN_PAGE = 'an admin page, read by a few staff: its filtered, sorted pages are served by indexes on MongoDB (docs/scaling.md)';

const q = encodeURIComponent;

/** Every call measured, by the pages that make it; the ones that may read a collection whole last. */
export const SCALE_CALLS: ScaleCall[] = [
  // Every signed-in page: the side menu, the account head, the unread badge.
  { operationId: 'getMessageCounts', pages: 'every signed-in page (unread badge, polled)', as: 'member', path: (f) => `/message/counts/${f.member.id}` },
  { operationId: 'getWalletSummary', pages: 'side menu, Wallet, Settings', as: 'member', path: (f) => `/wallet/summary/${f.member.id}` },
  { operationId: 'getWalletSummary', pages: 'side menu, Wallet (heavy artist)', as: 'artist', path: (f) => `/wallet/summary/${f.artist.id}` },
  { operationId: 'getUserExt', pages: 'account head, Settings, Pricing', as: 'member', path: (f) => `/user-setting/get-ext/${f.member.id}` },
  { operationId: 'getProjectsOfUser', pages: 'side menu, Projects', as: 'artist', path: (f) => `/project/${f.artist.id}` },
  { operationId: 'getWalletLink', pages: 'side menu, NFT, Settings', as: 'member', path: () => '/stellar/wallet' },
  { operationId: 'getSubscription', pages: 'sign-in, plan, Privacy', as: 'member', path: (f) => `/subscription/${f.member.id}` },
  { operationId: 'getAllPlans', pages: 'sign-in, plan, Privacy', as: 'member', path: () => '/subscription/all-plans' },
  { operationId: 'getAllTags', pages: 'every page (tags), order return', as: 'member', path: () => '/tag/get-all' },
  { operationId: 'getFollowCount', pages: 'profile, side menu', as: 'member', path: (f) => `/follow/get-count/${f.member.id}` },
  { operationId: 'getFollowCount', pages: 'profile (heavy artist)', as: 'member', path: (f) => `/follow/get-count/${f.artist.id}` },
  { operationId: 'getPageUi', pages: 'every page (footer)', as: 'member', path: () => '/page-ui/footer' },
  { operationId: 'getPageMeta', pages: 'every page (title)', as: 'member', path: () => '/pages-metas/home' },
  // Explore, search, a piece.
  { operationId: 'getContentsByKind', pages: 'Explore (each tab), piece strips', as: 'member', path: () => '/content/get-by-kind/featured?limit=24' },
  { operationId: 'getContentsByKind', pages: 'Explore (Trending)', as: 'member', path: () => '/content/get-by-kind/trending?limit=24' },
  {
    operationId: 'getContentsByKind',
    pages: 'Explore (a sub-tag)',
    as: 'member',
    path: (f) => `/content/get-by-kind/new?limit=24&tag=${q(f.mainTag.label)}&subTag=${q(f.subTag.label)}`,
  },
  {
    operationId: 'getContentsByKind',
    pages: 'a piece (more by the artist), Explore (an artist)',
    as: 'member',
    path: (f) => `/content/get-by-kind/new?limit=12&ownerId=${f.artist.id}`,
  },
  {
    operationId: 'getContentsByKind',
    pages: 'Explore (an artist and a sub-tag)',
    as: 'member',
    path: (f) => `/content/get-by-kind/popular?limit=24&ownerId=${f.artist.id}&tag=${q(f.mainTag.label)}&subTag=${q(f.subTag.label)}`,
  },
  { operationId: 'getArtists', pages: 'Explore (artists strip)', as: 'member', path: () => '/user/get-users?limit=12' },
  { operationId: 'getTrendingArtists', pages: 'Explore, piece strips', as: 'member', path: () => '/user/get-trending-users?limit=12' },
  { operationId: 'getTitleSuggestions', pages: 'Explore (search box)', as: 'member', path: () => '/content/get-all-titles?q=blu&limit=7' },
  { operationId: 'searchContents', pages: 'Search', as: 'member', path: () => '/content/search-contents?q=blue&limit=24' },
  { operationId: 'searchOwners', pages: 'Search', as: 'member', path: () => '/content/get-all-owners?q=ana&limit=24' },
  { operationId: 'getContentDetail', pages: 'a piece (modal)', as: 'member', path: (f) => `/content/detail/${f.piece.id}/for-user/${f.member.id}` },
  { operationId: 'getContentById', pages: 'share, replace file, paid, monetize', as: 'member', path: (f) => `/content/get-by-id/${f.piece.id}` },
  {
    operationId: 'getContentByLink',
    pages: 'a piece by its link',
    as: 'member',
    path: (f) => `/content/get-by-link/${f.piece.ownerUsername}/${f.piece.slug}`,
  },
  { operationId: 'getCommentsByContent', pages: 'a piece (comments)', as: 'member', path: (f) => `/comment/get-by-content/${f.piece.id}?limit=20` },
  { operationId: 'getBidsByContent', pages: 'a piece (bids)', as: 'member', path: (f) => `/bid/getAllByContent/${f.piece.id}` },
  { operationId: 'getMyFlag', pages: 'a piece (flag)', as: 'member', path: (f) => `/flag/get-mine/${f.piece.id}` },
  // Profiles.
  { operationId: 'getProfileByUsername', pages: 'a profile (heavy artist)', as: 'member', path: (f) => `/user/profile/${f.artist.username}` },
  { operationId: 'getProfileByUsername', pages: 'own profile', as: 'member', path: (f) => `/user/profile/${f.member.username}` },
  {
    operationId: 'getContentsByUsername',
    pages: 'a profile, Projects, Analytics',
    as: 'member',
    path: (f) => `/content/get-by-username/${f.artist.username}?limit=24`,
  },
  {
    operationId: 'getSupportedContents',
    pages: 'a profile (supported)',
    as: 'member',
    path: (f) => `/content/get-supported/${f.member.id}?limit=24`,
  },
  {
    operationId: 'getFollowers',
    pages: 'a profile (followers)',
    as: 'member',
    path: (f) => `/follow/get-followers/${f.artist.id}/myuserId/${f.member.id}?limit=20`,
  },
  {
    operationId: 'getFollowings',
    pages: 'a profile (following)',
    as: 'member',
    path: (f) => `/follow/get-followings/${f.member.id}/myuserId/${f.member.id}?limit=20`,
  },
  { operationId: 'getTop50Chart', pages: 'Top 50', as: 'member', path: (f) => `/content/top50/${f.artist.username}` },
  { operationId: 'getProjectContents', pages: 'Projects', as: 'artist', path: (f) => `/project/content/${f.projectId}` },
  // Messages.
  { operationId: 'getMessagesByReceiver', pages: 'Inbox', as: 'member', path: (f) => `/message/by-receiverId/${f.member.id}?limit=20` },
  { operationId: 'getMessagesByReceiver', pages: 'Inbox (heavy artist)', as: 'artist', path: (f) => `/message/by-receiverId/${f.artist.id}?limit=20` },
  { operationId: 'getDeletedMessages', pages: 'Inbox (deleted)', as: 'member', path: (f) => `/message/deleted-messages/${f.member.id}?limit=20` },
  { operationId: 'getMessageThread', pages: 'Inbox (a thread)', as: 'member', path: (f) => `/message/thread/${f.threadId}` },
  { operationId: 'getSupportAccount', pages: 'Inbox, admin support', as: 'member', path: () => '/message/support-account' },
  {
    operationId: 'searchMembers',
    pages: 'Inbox (new message)',
    as: 'member',
    path: () => '/user/search-members?q=ana&limit=8',
    limitPerCaller: MEMBER_SEARCHES_PER_MINUTE,
  },
  // Wallet, analytics, payments.
  { operationId: 'getUserHistory', pages: 'Wallet (history)', as: 'member', path: (f) => `/user-history/get-all/${f.member.id}?limit=20` },
  {
    operationId: 'getUserHistory',
    pages: 'Wallet (history, heavy artist)',
    as: 'artist',
    path: (f) => `/user-history/get-all/${f.artist.id}?limit=20`,
  },
  { operationId: 'getPaidHistory', pages: 'Wallet (paid)', as: 'artist', path: (f) => `/user-history/get-paid/${f.artist.id}?limit=20` },
  {
    operationId: 'downloadStatement',
    pages: 'Wallet (statement download)',
    as: 'member',
    path: (f) => `/wallet/statement/${f.member.id}?format=json&month=${f.lastMonth}`,
    limitPerCaller: STATEMENTS_PER_HOUR,
  },
  {
    // The heavy artist's month is ten times longer at the large size (a tenth of the members, a tenth of the plays):
    // the file grows with their own entries, one line each, as it must.
    operationId: 'downloadStatement',
    pages: 'Wallet (statement download, heavy artist)',
    as: 'artist',
    path: (f) => `/wallet/statement/${f.artist.id}?format=json&month=${f.lastMonth}`,
    limitPerCaller: STATEMENTS_PER_HOUR,
  },
  {
    operationId: 'getLedgerProof',
    pages: 'Wallet (proof download)',
    as: 'member',
    path: (f) => `/ledger/proofs/${q(f.entryId)}`,
    limitPerCaller: PROOFS_PER_MINUTE,
  },
  {
    operationId: 'getEarningsAnalytics',
    pages: 'Analytics (asked by an admin: the artist needs a plan)',
    as: 'admin',
    path: (f) => `/analytics/earnings/${f.artist.id}?period=month&type=music`,
  },
  {
    operationId: 'getEmbedHostEarnings',
    pages: 'Analytics (embeds; asked by an admin)',
    as: 'admin',
    path: (f) => `/analytics/embed-hosts/${f.artist.id}?period=month`,
  },
  { operationId: 'getListingForecast', pages: 'Analytics, monetize', as: 'artist', path: (f) => `/analytics/forecast/${f.artistPiece.id}` },
  { operationId: 'getListingQuote', pages: 'monetize', as: 'artist', path: (f) => `/payments/listing-quote/${f.artistPiece.id}` },
  { operationId: 'getPaymentOrder', pages: 'order return', as: 'member', path: (f) => `/payments/orders/${f.artistPiece.id}` },
  { operationId: 'getCreditMovements', pages: 'plan, admin member', as: 'member', path: (f) => `/user-setting/credits/${f.member.id}` },
  { operationId: 'getSubscriptionStatus', pages: 'subscription return', as: 'member', path: () => '/subscription/status/sub_0123456789abcdef0123' },
  { operationId: 'getContentVersions', pages: 'replace file', as: 'artist', path: (f) => `/content/versions/${f.artistPiece.id}` },
  // Settings.
  { operationId: 'getCountries', pages: 'Settings (region)', as: 'member', path: () => '/user-setting/countries' },
  { operationId: 'getRegions', pages: 'Settings (region)', as: 'member', path: () => '/user-setting/regions/PT' },
  { operationId: 'listApiKeys', pages: 'Settings (API keys)', as: 'artist', path: () => '/api-keys' },
  { operationId: 'getInstagramConnection', pages: 'share to Instagram', as: 'member', path: () => '/instagram/connection' },
  {
    operationId: 'downloadMyData',
    pages: 'Settings (your data download)',
    as: 'member',
    path: (f) => `/user-setting/download-data/${f.member.id}`,
    limitPerCaller: EXPORTS_PER_HOUR,
  },
  {
    operationId: 'getUserByUsername',
    pages: 'sign-up, Settings (username check)',
    as: 'member',
    path: (f) => `/user/get-user-by-username/${f.member.username}`,
  },
  { operationId: 'getAuthProviders', pages: 'sign-in', as: 'anonymous', path: () => '/auth/providers' },
  // Content pages.
  { operationId: 'getCmsPage', pages: 'How it works, Earn, guide', as: 'member', path: () => '/cms-pages/become' },
  { operationId: 'listNativePosts', pages: 'Blog', as: 'member', path: () => '/native-posts?limit=10' },
  { operationId: 'getNativePost', pages: 'Blog (a post)', as: 'member', path: () => '/native-posts/how-knack-works' },
  // Admin pages.
  { operationId: 'getAdminDashboard', pages: 'admin dashboard', as: 'admin', path: () => '/admin/dashboard', scans: ADMIN_PAGE },
  { operationId: 'listMembers', pages: 'admin members', as: 'admin', path: () => '/admin/members?limit=20', scans: ADMIN_PAGE },
  { operationId: 'getMember', pages: 'admin member', as: 'admin', path: (f) => `/admin/members/${f.artist.id}`, scans: ADMIN_PAGE },
  { operationId: 'listAdminPieces', pages: 'admin pieces', as: 'admin', path: () => '/admin/pieces?limit=20', scans: ADMIN_PAGE },
  { operationId: 'listCashOuts', pages: 'admin cash-outs', as: 'admin', path: () => '/admin/cash-outs?limit=20', scans: ADMIN_PAGE },
  { operationId: 'getOpenFlags', pages: 'admin flags', as: 'admin', path: () => '/flag/get-open', scans: ADMIN_PAGE },
  { operationId: 'getPieceFlags', pages: 'admin flags (a piece)', as: 'admin', path: (f) => `/flag/by-piece/${f.piece.id}`, scans: ADMIN_PAGE },
  { operationId: 'getAuditLog', pages: 'admin audit', as: 'admin', path: () => '/admin/audit?limit=20', scans: ADMIN_PAGE },
  { operationId: 'listDiscountCodes', pages: 'admin discount codes', as: 'admin', path: () => '/code/all', scans: ADMIN_PAGE },
  { operationId: 'getCmsPageSource', pages: 'admin pages', as: 'admin', path: () => '/admin/cms-pages/become' },
  { operationId: 'listAllNativePosts', pages: 'admin pages (blog)', as: 'admin', path: () => '/admin/native-posts' },
  { operationId: 'getTestMailbox', pages: 'admin (create account)', as: 'admin', path: () => '/admin/test-mailbox' },
  // Integrators (API key), besides the catalogue and earnings calls the pages make above.
  { operationId: 'getAllContents', pages: 'integrators', as: 'key', path: () => '/content/get-all?limit=24' },
  { operationId: 'getFeaturedContents', pages: 'integrators', as: 'key', path: () => '/content/get-featured?limit=24' },
  { operationId: 'getContentsByTag', pages: 'integrators', as: 'key', path: (f) => `/content/get-by-tag?tag=${q(f.subTag.label)}&limit=24` },
  { operationId: 'getArtistsByFans', pages: 'integrators', as: 'key', path: () => '/user/get-users-by-fans?limit=12' },
  { operationId: 'getTagById', pages: 'integrators', as: 'key', path: (f) => `/tag/${f.subTag.id}` },
  { operationId: 'getTagByLabel', pages: 'integrators', as: 'key', path: (f) => `/tag/label/${q(f.subTag.label)}` },
  { operationId: 'getTopSubTags', pages: 'integrators', as: 'key', path: (f) => `/tag/get-top-sub-tags/${f.mainTag.id}?limit=10` },
  { operationId: 'getTagHistory', pages: 'integrators', as: 'key', path: (f) => `/tag-history/${f.subTag.id}/month` },
  {
    operationId: 'getUserHistory',
    pages: 'integrators (earnings key)',
    as: 'key',
    path: (f) => `/user-history/get-all/${f.artist.id}?limit=20`,
  },
  {
    operationId: 'getContentsByUsername',
    pages: 'integrators (catalogue key)',
    as: 'key',
    path: (f) => `/content/get-by-username/${f.artist.username}?limit=24`,
  },
];
