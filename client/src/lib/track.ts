/**
 * Product events: `track(name, props)` is the one call the app makes to record what a person did (signed in, played
 * a song, knacked, followed, commented...), with ids only in `props`. Nothing is kept or sent when the browser asks
 * not to be tracked (Do Not Track or Global Privacy Control). This file is all the first page loads of it: the
 * events wait here, and what sends them (lib/eventBatches.ts: the batches, the beacon as the page is hidden) comes
 * as a chunk of its own with the first event.
 */
import { postProductEvents, type ProductEvent } from '../api/productEvents';

export type ProductEventName = ProductEvent['name'];
export type ProductEventProps = NonNullable<ProductEvent['props']>;

type Batches = typeof import('./eventBatches');

const waiting: ProductEvent[] = [];
let batches: Promise<Batches> | undefined;
/** The batches once loaded: they hold the events token (before they are loaded there is none). */
let loaded: Batches | undefined;

const source = { take: () => waiting.splice(0), post: postProductEvents };

/** Do Not Track (`navigator.doNotTrack === '1'`) or Global Privacy Control: the person asked not to be tracked. */
export function asksNotToBeTracked(): boolean {
  const nav = navigator as Navigator & { globalPrivacyControl?: boolean };
  return nav.doNotTrack === '1' || nav.globalPrivacyControl === true;
}

/** Records that `name` happened now. */
export function track(name: ProductEventName, props?: ProductEventProps): void {
  if (typeof navigator === 'undefined' || asksNotToBeTracked()) return;
  waiting.push({ name, at: new Date().toISOString(), ...(props ? { props } : {}) });
  batches ??= import('./eventBatches').then((module) => (loaded = module));
  void batches.then((module) => module.eventsWaiting(source, waiting.length));
}

/** Sends what waits now (a test, or a page about to go): resolves once the server has answered. */
export async function flushEvents(): Promise<void> {
  if (batches) await (await batches).flushEvents();
}

/**
 * A member signed in or out: the events token held (the events module's, once loaded) names nobody now, and the next
 * event leaves at once, so that its answer gives the page the new member's token for its beacons.
 */
export function sessionChanged(): void {
  loaded?.sessionChanged();
}
