/**
 * Product events: what people do in the app (signing in and up, password resets, posting, plays, knacks, follows,
 * comments), sent in batches by the app, stored one fact per event in `product_events` with no personal data but
 * the member's id, counted per day and event by the product-events job into `product_event_counts` (read by `_id`
 * for the admin dashboard), and handed to a configured analytics service (PostHog) after the answer.
 */
export { eventsBodyLimit, eventsRouter, EVENTS_PATH } from './events.routes';
export { createEventsService, EVENTS_BODY_LIMIT_BYTES, EVENTS_LIMITS, EVENTS_MESSAGES, type EventsService } from './events.service';
export { createEventForwarder, type EventForwarder } from './events.forwarding';
export { countProductEvents, EVENT_NAMES, productEventWeek, purgeOldProductEvents } from './events.counts';
export { forgetMemberInProductEvents, productEventsExportOf } from './events.erasure';
export { forgetProductEventLists, productEventListsState } from './events.lists';
