import { appendFileSync } from 'node:fs';
import type { SerializedError } from 'vitest';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * With LK_FAILED_TESTS_FILE set (.ci/run sets it), a line per failed test — its step (LK_FAILED_TESTS_STEP), file,
 * name, its error on one line — appended to that file, so that CI's last lines, under its step table, say which test
 * failed and not only which step. A file that failed outside any test (its import, a beforeAll) gets a line of its
 * own, and so does an unhandled error.
 */
export default class FailureList implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    for (const module of testModules) {
      for (const test of module.children.allTests('failed')) {
        recordFailure(`${module.relativeModuleId} > ${test.fullName}: ${oneLine(test.result().errors?.[0])}`);
      }
      for (const error of module.errors()) recordFailure(`${module.relativeModuleId}: ${oneLine(error)}`);
    }
    for (const error of unhandledErrors) recordFailure(`unhandled: ${oneLine(error)}`);
  }
}

/** Appends one line to the failed tests' list, headed by its step, when a list is kept (LK_FAILED_TESTS_FILE). */
export function recordFailure(line: string): void {
  const file = process.env.LK_FAILED_TESTS_FILE;
  if (!file) return;
  const step = process.env.LK_FAILED_TESTS_STEP ? `[${process.env.LK_FAILED_TESTS_STEP}] ` : '';
  appendFileSync(file, `${step}${line}\n`);
}

/** The error's name and message on one line (its lines joined by " | "), at most 400 characters. */
function oneLine(error: SerializedError | undefined): string {
  const text = error ? `${error.name ?? 'Error'}: ${error.message ?? ''}` : 'no error recorded';
  const line = text.trim().replace(/\s*\n\s*/g, ' | ');
  return line.length > 400 ? `${line.slice(0, 399)}…` : line;
}
