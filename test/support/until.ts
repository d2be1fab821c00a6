import { setTimeout as wait } from 'node:timers/promises';

/**
 * Resolves once `condition()` holds, looking every 10 ms: a wait for an event that offers no callback (a counter in
 * the sandbox, a file appearing, a child's output). No deadline of its own: the test's timeout bounds it. Node's own
 * timer, so it keeps looking while a test fakes the global setTimeout.
 */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await wait(10);
}
