/**
 * axe-core in the browser tests: runs it in a page (through the DevTools protocol, so the page's
 * Content-Security-Policy stays as served), prints its report, and answers the serious and critical
 * violations.
 *
 * @module
 */
import axe from "axe-core";

/** What a page (playwright's) offers for this. */
interface EvaluatingPage {
  evaluate(script: string): Promise<unknown>;
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/** Runs axe-core on the page as it is now; prints one line per violation; answers the serious ones. */
export async function axeReport(page: EvaluatingPage, name: string): Promise<string[]> {
  if (!await page.evaluate("typeof window.axe === 'object'")) await page.evaluate(axe.source);
  const result = await page.evaluate(
    "window.axe.run(document, { resultTypes: ['violations'] }).then((r) => JSON.stringify(r.violations))",
  ) as string;
  const violations = JSON.parse(result) as AxeViolation[];
  const lines = violations.map((v) =>
    `  ${v.impact ?? "?"}: ${v.id} (${v.help}) at ${
      v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")
    }`
  );
  console.log(`axe-core ${axe.version} on the ${name} page: ${violations.length} violation(s)`);
  for (const line of lines) console.log(line);
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${name}: ${v.impact}: ${v.id}: ${v.help}`);
}
