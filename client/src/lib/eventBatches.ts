/**
 * When product events leave the page (lib/track.ts loads this file, a chunk of its own, with the first event, so
 * that none of it weighs on the first page): together, a few seconds after the first, at once when enough have
 * gathered, through the generated call; and when the page is hidden (a tab switched away or closed, the phone
 * locked), the last moment a page can be counted on to send anything, by `navigator.sendBeacon`, which outlives the
 * page but cannot send an Authorization header: the beacon carries instead the events token the last answer gave a
 * signed-in member. So that a beacon has that token soon, the first event after the page loads or the session
 * changes leaves at once: its answer says who the page is sending for. Sending is best effort: a batch the network
 * or the server refuses is not tried again.
 */
import type { RecordEventsResult } from '../api/generated/operations';
import type { ProductEvent } from '../api/productEvents';

/** How long the first event of a batch waits for others. */
export const FLUSH_AFTER_MS = 5_000;
/** A batch this large leaves at once. */
export const FLUSH_AT = 20;
/** The most events the server takes in one batch. */
const BATCH_MAX = 50;
/** Where the events call is, for the beacon (which does not go through the HTTP client). */
const EVENTS_URL = '/api/v2/events';

/** What lib/track.ts gives this file: the events waiting there (handing them over empties it), and the call. */
export interface EventSource {
  take: () => ProductEvent[];
  post: (events: ProductEvent[]) => Promise<RecordEventsResult>;
}

let source: EventSource = { take: () => [], post: () => Promise.reject(new Error('No events yet.')) };
let timer: ReturnType<typeof setTimeout> | undefined;
let listening = false;
/** The events token of the member who sent the last batch, and until when this page uses it (a minute before the server's end). */
let eventsToken: { value: string; until: number } | null = null;
/** An answer since the page loaded or the session changed has said who the page sends for (a token, or a visitor's none). */
let answered = false;
/** The batches on their way, one after the other; how many flushes have not finished. */
let inFlight: Promise<void> = Promise.resolve();
let sending = 0;

function batches(): ProductEvent[][] {
  const taken = source.take();
  clearTimeout(timer);
  timer = undefined;
  const split: ProductEvent[][] = [];
  for (let i = 0; i < taken.length; i += BATCH_MAX) split.push(taken.slice(i, i + BATCH_MAX));
  return split;
}

/** Sends a batch; the answer's events token (a signed-in member's) replaces the one kept, a visitor's answer drops it. */
async function post(events: ProductEvent[]): Promise<void> {
  const answer = await source.post(events);
  eventsToken = answer.eventsToken ? { value: answer.eventsToken, until: Date.now() + ((answer.eventsTokenExpiresIn ?? 0) - 60) * 1000 } : null;
  answered = true;
}

/** Hands a batch to the browser to send after the page is gone; false when it will not take it. */
function beacon(events: ProductEvent[]): boolean {
  if (typeof navigator.sendBeacon !== 'function') return false;
  const token = eventsToken && eventsToken.until > Date.now() ? eventsToken.value : undefined;
  return navigator.sendBeacon(EVENTS_URL, new Blob([JSON.stringify(token ? { events, eventsToken: token } : { events })], { type: 'application/json' }));
}

function onVisibilityChange(): void {
  if (document.visibilityState !== 'hidden') return;
  for (const batch of batches()) if (!beacon(batch)) void post(batch).catch(() => undefined);
}

/** Sends what is waiting now, after the batches already on their way; resolves when the server has answered them all. */
export function flushEvents(): Promise<void> {
  const taken = batches();
  sending += 1;
  inFlight = inFlight
    .then(async () => {
      for (const batch of taken) {
        try {
          await post(batch);
        } catch {
          // Best effort: the batch is dropped.
        }
      }
    })
    .finally(() => {
      sending -= 1;
    });
  return inFlight;
}

/** `count` events wait in lib/track.ts: they leave at the next of the moments above. */
export function eventsWaiting(from: EventSource, count: number): void {
  source = from;
  if (!listening) {
    listening = true;
    document.addEventListener('visibilitychange', onVisibilityChange);
  }
  if (count >= FLUSH_AT || (count > 0 && !answered && sending === 0)) void flushEvents();
  else if (count > 0) timer ??= setTimeout(() => void flushEvents(), FLUSH_AFTER_MS);
}

/** A member signed in or out: the token held names nobody now, and the next event leaves at once to learn who. */
export function sessionChanged(): void {
  eventsToken = null;
  answered = false;
}
