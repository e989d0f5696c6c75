/**
 * PostHog's capture API (no SDK): `POST {host}/batch/` with the project API key in the body (`api_key`) and the
 * events under `batch`. A member's events go under their Knack id (`distinct_id`); a visitor's under an id of
 * their batch alone, with `$process_person_profile: false`, so that PostHog makes no person of them. Every event
 * carries `$geoip_disable`: it is sent from Knack's server, whose address says nothing of where the member is.
 * The `uuid` of each is made from the stored fact's id, which PostHog uses to tell a repeated event.
 */
import { AnalyticsSinkError, type AnalyticsSink, type OutgoingEvent } from './analytics.types';

export interface PostHogOptions {
  /** The capture host: https://us.i.posthog.com, https://eu.i.posthog.com, a self-hosted PostHog, or a stand-in in tests. */
  host: string;
  /** The project API key (phc_…): it can only send events, never read them. */
  apiKey: string;
}

const TIMEOUT_MS = 10_000;
/** How much of PostHog's answer a failure repeats. */
const DETAIL_CHARS = 200;

function captured(event: OutgoingEvent) {
  return {
    event: event.name,
    distinct_id: event.memberId ?? event.anonymousId,
    timestamp: event.at.toISOString(),
    uuid: event.uuid,
    properties: {
      ...event.props,
      ...(event.memberId ? {} : { $process_person_profile: false }),
      $geoip_disable: true,
      $lib: 'knack-server',
    },
  };
}

export function posthogSink({ host, apiKey }: PostHogOptions): AnalyticsSink {
  const url = `${host}/batch/`;
  return {
    kind: 'posthog',
    async send(events) {
      let answer: Response;
      try {
        answer = await fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ api_key: apiKey, batch: events.map(captured) }),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (err) {
        throw new AnalyticsSinkError(`PostHog could not be reached: ${(err as Error).message}`);
      }
      if (!answer.ok) {
        const detail = (await answer.text().catch(() => '')).slice(0, DETAIL_CHARS);
        throw new AnalyticsSinkError(`PostHog answered ${answer.status}: ${detail}`, answer.status);
      }
    },
  };
}
