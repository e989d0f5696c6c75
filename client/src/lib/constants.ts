/** Layout and brand constants, in one place for the whole SPA. */

/** Breakpoints in px: phone below 600, tablet 768-1024. CSS mirrors these in styles/global.css. */
export const BREAKPOINTS = {
  xs: 576,
  phone: 600,
  tablet: 768,
  compact: 1000,
  tabletWide: 1024,
  desktop: 1200,
  wide: 1300,
} as const;

export const BRAND = {
  name: 'Knack',
  primary: '#5b3cf5',
  ink: '#161326',
  supportEmail: 'support@knack.example',
  copyrightYear: 2026,
} as const;

/** Paths of screens and static pages linked from the layout. Screens not built yet fall back to home. */
export const PATHS = {
  home: '/',
  explore: '/explore',
  pricing: '/pricing',
  userGuide: '/user-guide',
  admin: '/admin',
  wallet: '/wallet',
  inbox: '/inbox',
  analytics: '/analytics',
  settings: '/user-setting',
  activityHistory: '/activity-history',
  collection: '/profile/supported',
  myProfile: '/profile/default',
  ownProjects: '/profile/projects',
  faq: '/earning/faq',
  /** NFT mode: a piece minted as a Stellar token (members), what it is and how it compares (visitors). */
  nft: '/nft',
  howItWorks: '/become/all',
  /** The verifier of ledger proofs: anyone checks a downloaded proof against its root on Stellar. */
  verifyProof: '/verify',
  privacy: '/privacy-policy.html',
  terms: '/terms-of-use.html',
  exploreTag: (slug: string) => `/explore/${encodeURIComponent(slug)}`,
  /** The full list of one feed kind, optionally under one tag (its slug). */
  viewAll: (kind: string, tagSlug?: string) => `/viewall/${kind}${tagSlug ? `/${encodeURIComponent(tagSlug)}` : ''}`,
  /** Search results for a query (the query is the slug, URL-encoded). */
  search: (query: string) => `/search/${encodeURIComponent(query)}`,
  /** A member's public profile. */
  profile: (username: string) => `/${encodeURIComponent(username)}`,
} as const;
