import type { Reporter, TestModule } from 'vitest/node';
import { OUTSIDE_TOOLS, SKIP_MARKER, type OutsideTool } from './outside-tools.js';

/**
 * The last line of `npm test`: which tests were skipped for want of an outside tool (test/support/outside-tools.ts),
 * and the one `apt-get install` that brings them all. Nothing when nothing was skipped.
 */
export default class SkipSummary implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const skippedByTool = new Map<OutsideTool, number>();
    for (const module of testModules) {
      for (const test of module.children.allTests('skipped')) {
        for (const tool of toolsNamedIn(test.fullName)) skippedByTool.set(tool, (skippedByTool.get(tool) ?? 0) + 1);
      }
    }
    if (skippedByTool.size === 0) return;
    const tools = [...skippedByTool.keys()].sort();
    const counts = tools.map((tool) => `${tool} (${skippedByTool.get(tool)})`).join(', ');
    const packages = [...new Set(tools.map((tool) => OUTSIDE_TOOLS[tool].apt))].join(' ');
    process.stdout.write(`\nSkipped tests that need outside tools: ${counts}. To run them: apt-get install ${packages}\n`);
  }
}

function toolsNamedIn(name: string): OutsideTool[] {
  const match = new RegExp(`\\[${SKIP_MARKER} ([^\\]]+)\\]`).exec(name);
  if (!match) return [];
  return match[1]!.split(', ').filter((tool): tool is OutsideTool => tool in OUTSIDE_TOOLS);
}
