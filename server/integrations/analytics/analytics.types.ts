/** What leaves Knack for a product-analytics service: one product event, with ids only. */
export interface OutgoingEvent {
  /** A UUID made from the stored fact's id: an event sent twice is one event to the service. */
  uuid: string;
  name: string;
  /** When it happened, by the member's device. */
  at: Date;
  /** The member's id, or null for a visitor. */
  memberId: string | null;
  /** For a visitor: an id of the batch it came in, so that the service cannot tie one visit to another. */
  anonymousId: string;
  /** Ids only (`contentId`). */
  props: Record<string, string>;
}

/** A product-analytics service that takes Knack's events (PostHog's capture API). */
export interface AnalyticsSink {
  kind: 'posthog';
  /** Sends a batch; rejects with AnalyticsSinkError when the service did not take it. */
  send(events: OutgoingEvent[]): Promise<void>;
}

export class AnalyticsSinkError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'AnalyticsSinkError';
  }
}
