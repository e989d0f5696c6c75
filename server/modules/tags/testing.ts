/**
 * What tests (and the seed and bench scripts) use of this module beyond its index.ts: the seeded main tags with their
 * prices, and how a label becomes a slug. Production code never imports this file (the linter refuses it): other
 * modules use the index.
 */
export { MAIN_TAGS } from './tags.seed';
export { seedKnackPriceMicros } from './price-rule';
export { slugify } from './tags.service';
