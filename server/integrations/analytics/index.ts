/**
 * Product analytics: where product events go besides Knack's own store. Nowhere by default (the events are kept and
 * counted by Knack alone); PostHog's capture API with ANALYTICS_DRIVER=posthog.
 */
import type { Config } from '../../config';
import { posthogSink } from './posthog.driver';
import type { AnalyticsSink } from './analytics.types';

export * from './analytics.types';
export { posthogSink, type PostHogOptions } from './posthog.driver';

/** The configured service, or null when events stay in Knack (the embedded default). */
export function createAnalyticsSink(config: Partial<Pick<Config, 'analytics'>>): AnalyticsSink | null {
  const posthog = config.analytics?.driver === 'posthog' ? config.analytics.posthog : undefined;
  return posthog ? posthogSink(posthog) : null;
}
