/**
 * Hands stored events to the configured analytics service after the member was answered: `enqueue` only adds them
 * to this process's queue and returns, and the queue is sent in the background, a batch at a time. A slow or failing
 * service therefore never slows or fails a member's request; a batch it refuses or cannot take is logged and
 * dropped (the events stay in Knack's own store, which is what the dashboard counts). The queue is this process's
 * alone and nothing depends on it but the service's copy: a crash loses what was waiting, never a count.
 */
import { createHash } from 'node:crypto';
import type { AnalyticsSink, OutgoingEvent } from '../../integrations/analytics';
import type { Logger } from '../../lib/logger';

/** Events sent to the service in one request. */
const BATCH_SIZE = 100;
/** Past this many waiting events (the service down for a while), the oldest are dropped rather than memory grown. */
const MOST_WAITING = 10_000;

export interface EventForwarder {
  /** Queues stored events for the service; returns at once, never throws. */
  enqueue(events: OutgoingEvent[]): void;
  /** Resolves once every queued event was sent or given up (a graceful stop, the tests). */
  idle(): Promise<void>;
}

/** A UUID made from a stored fact's id (RFC 9562 version 8, the layout of our own): the same fact gives the same UUID. */
export function uuidOfFact(factId: string): string {
  const bytes = createHash('sha256').update(`knack-product-event:${factId}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function createEventForwarder(sink: AnalyticsSink | null, logger: Logger): EventForwarder {
  const waiting: OutgoingEvent[] = [];
  let draining: Promise<void> | null = null;

  async function drain(): Promise<void> {
    // The member's answer is written before the first send starts.
    await new Promise((resolve) => setImmediate(resolve));
    while (sink && waiting.length > 0) {
      const batch = waiting.splice(0, BATCH_SIZE);
      try {
        await sink.send(batch);
      } catch (err) {
        logger.warn({ err, events: batch.length, driver: sink.kind }, 'product events not forwarded');
      }
    }
  }

  function startDraining(): void {
    draining = drain().finally(() => {
      draining = null;
      // Events queued after the last send began and before this turn would otherwise wait for the next request.
      if (sink && waiting.length > 0) startDraining();
    });
  }

  return {
    enqueue(events) {
      if (!sink || events.length === 0) return;
      waiting.push(...events);
      const over = waiting.length - MOST_WAITING;
      if (over > 0) {
        waiting.splice(0, over);
        logger.warn({ events: over, driver: sink.kind }, 'product events dropped: too many waiting for the analytics service');
      }
      if (!draining) startDraining();
    },
    async idle() {
      while (draining) await draining;
    },
  };
}
