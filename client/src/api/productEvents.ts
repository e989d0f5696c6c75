/** The server's side of product events for the client: the batch's shape and the one call that sends it. */
import type { components } from '../../../generated/openapi';
import { recordEvents, type RecordEventsResult } from './generated/operations';

export type ProductEvent = components['schemas']['ProductEvent'];

/** Sends a batch through the generated call (the session's bearer token with it, as on every call), never toasting a failure. */
export const postProductEvents = (events: ProductEvent[]): Promise<RecordEventsResult> =>
  recordEvents({ body: { events } }, { quiet: 'product events are sent on a best-effort basis, never the member’s concern' });
