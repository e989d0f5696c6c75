/**
 * The accessibility check of the e2e suite: axe-core's WCAG 2.0, 2.1 and 2.2 rules (levels A and AA) run in the
 * page as it stands, and every serious or critical violation is reported as one readable line per element.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];
const BLOCKING = new Set(['serious', 'critical']);

/**
 * The serious and critical violations on the page (or only inside the `within` CSS selectors), each as
 * "state: impact rule-id at selector (what is wrong)". An empty list means the state passes.
 *
 * axe runs in the page itself ("legacy mode"): the default mode opens a second page for every check to merge the
 * results of cross-origin frames, which the app has none of, and takes three times as long.
 */
export async function seriousViolations(page: Page, state: string, within: string[] = []): Promise<string[]> {
  let builder = new AxeBuilder({ page })
    .setLegacyMode(true)
    .withTags(WCAG_TAGS)
    .options({ resultTypes: ['violations'] });
  for (const selector of within) builder = builder.include(selector);
  const { violations } = await builder.analyze();
  return violations
    .filter((violation) => BLOCKING.has(violation.impact ?? ''))
    .flatMap((violation) =>
      violation.nodes.map((node) => {
        const why = (node.failureSummary ?? '').split('\n').slice(1).join(' ').trim();
        return `${state}: ${violation.impact} ${violation.id} at ${node.target.join(' ')} (${why})`;
      }),
    );
}
