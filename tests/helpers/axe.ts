/**
 * The accessibility check of the e2e suite: axe-core's rules, as `axe.run` runs them by default (its WCAG 2.0,
 * 2.1 and 2.2 A and AA rules that are on by default, and its best practices), in the page as it stands, and every
 * serious or critical violation is reported as one readable line per element.
 */
import { readFileSync } from 'node:fs';
import type { Frame, Page } from 'playwright-core';

const BLOCKING = new Set(['serious', 'critical']);

/** axe-core itself, put into each document once. */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** What the page sends back of a violation: only what the report line needs. */
interface Violation {
  id: string;
  impact: string | null;
  nodes: { target: string[]; failureSummary: string }[];
}

/** Puts axe into the frame unless its document has it already, set up as @axe-core/playwright sets it (same-origin frames only). */
async function putAxe(frame: Frame): Promise<void> {
  if (await frame.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function')) return;
  await frame.evaluate(AXE_SOURCE);
  await frame.evaluate(() =>
    (window as unknown as { axe: { configure(spec: object): void } }).axe.configure({
      allowedOrigins: ['<same_origin>'],
      branding: { application: 'playwright' },
    }),
  );
}

/**
 * The serious and critical violations on the page (or only inside the `within` CSS selectors), each as
 * "state: impact rule-id at selector (what is wrong)". An empty list means the state passes.
 *
 * axe runs in the page itself over its same-origin frames, without the blank page that merges the results of
 * cross-origin frames, which the app has none of and which takes three times as long. Only the violations come
 * back, and of them only what the report line needs: @axe-core/playwright's AxeBuilder sent axe's 650 kB source
 * twice per check and brought back every rule's whole result (passes and inapplicable ones too), which Playwright
 * then checked field by field, a third of the accessibility file's CPU.
 */
export async function seriousViolations(page: Page, state: string, within: string[] = []): Promise<string[]> {
  // axe goes into each document once, not at every check: the page's document must take it (a failure there
  // fails the test), the frames in it when they can.
  await putAxe(page.mainFrame());
  for (const frame of page.frames()) {
    // A frame going away meanwhile has nothing left to check.
    if (frame !== page.mainFrame()) await putAxe(frame).catch(() => undefined);
  }
  const context = { exclude: [] as string[], include: within };
  const violations = await page.evaluate(async (runContext) => {
    const axe = (window as unknown as { axe: { run(context: object, options: object): Promise<{ violations: Violation[] }> } }).axe;
    const results = await axe.run(runContext, { resultTypes: ['violations'] });
    return results.violations.map(({ id, impact, nodes }) => ({
      id,
      impact,
      nodes: nodes.map(({ target, failureSummary }) => ({ target, failureSummary })),
    }));
  }, context);
  return violations
    .filter((violation) => BLOCKING.has(violation.impact ?? ''))
    .flatMap((violation) =>
      violation.nodes.map((node) => {
        const why = (node.failureSummary ?? '').split('\n').slice(1).join(' ').trim();
        return `${state}: ${violation.impact} ${violation.id} at ${node.target.join(' ')} (${why})`;
      }),
    );
}
