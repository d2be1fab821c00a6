import type { Reporter, TestModule } from 'vitest/node';
import { OUTSIDE_TOOLS, SKIP_MARKER, type OutsideTool } from './outside-tools.js';
import { SQLITE_NODE, SQLITE_SKIP_MARKER } from './sqlite-node.js';

/**
 * The last lines of `npm test`: how many tests were skipped because this Node has no node:sqlite
 * (test/support/sqlite-node.ts), and which for want of an outside tool (test/support/outside-tools.ts), with the one
 * `apt-get install` that brings them all. Nothing when nothing was skipped.
 */
export default class SkipSummary implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const skipped = testModules.flatMap((module) => [...module.children.allTests('skipped')].map((test) => test.fullName));
    const lines = summaryLines(skipped, process.version);
    if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
  }
}

/** The summary's lines for the full names of the skipped tests, on Node `version` (v20.20.2). */
export function summaryLines(skipped: readonly string[], version: string): string[] {
  const skippedByTool = new Map<OutsideTool, number>();
  let needSqlite = 0;
  for (const name of skipped) {
    // A test of both kinds counts once, for node:sqlite: with the tool and this Node it would still not run.
    if (name.includes(`[${SQLITE_SKIP_MARKER}]`)) needSqlite += 1;
    else for (const tool of toolsNamedIn(name)) skippedByTool.set(tool, (skippedByTool.get(tool) ?? 0) + 1);
  }
  const lines: string[] = [];
  if (needSqlite > 0) {
    lines.push(
      `Skipped ${needSqlite === 1 ? '1 test that needs' : `${needSqlite} tests that need`} node:sqlite (Node ${SQLITE_NODE}+; this is Node ${version}): run them on Node ${SQLITE_NODE} or newer`,
    );
  }
  if (skippedByTool.size > 0) {
    const tools = [...skippedByTool.keys()].sort();
    const counts = tools.map((tool) => `${tool} (${skippedByTool.get(tool)})`).join(', ');
    const packages = [...new Set(tools.flatMap((tool) => OUTSIDE_TOOLS[tool].apt.split(' ')))].join(' ');
    lines.push(`Skipped tests that need outside tools: ${counts}. To run them: apt-get install ${packages}`);
  }
  return lines;
}

function toolsNamedIn(name: string): OutsideTool[] {
  const match = new RegExp(`\\[${SKIP_MARKER} ([^\\]]+)\\]`).exec(name);
  if (!match) return [];
  return match[1]!.split(', ').filter((tool): tool is OutsideTool => tool in OUTSIDE_TOOLS);
}
