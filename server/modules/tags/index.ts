/** Tags: main tags (Music, Art, Photos), sub-tags, prices and price history. */
export { tagsRouter } from './tags.routes';
export { dailyMoveBp, MAX_DAILY_MOVE_BP, nextTagPrice, RECENT_DAYS, USUAL_DAYS } from './price-rule';
export { seedTags } from './tags.seed';
export * as tagsService from './tags.service';
export { TagModel, TagHistoryModel, priceEntryId, tagReads, TAG_TYPES, type TagType, type TagDoc } from './tags.model';
