import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core (WCAG 2.x A and AA rules plus best practices) on the page once its running CSS animations have
 * finished (a fading card would be judged on its half-transparent colours) and returns the violations rated
 * serious or critical. The page's context needs `bypassCSP: true` to take the script.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        // A looping animation (a spinner) never finishes: only wait for the ones that end.
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResults> } })
      .axe;
    const results = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

interface AxeResults {
  violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
}
