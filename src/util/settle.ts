/**
 * Promise.all that waits for every promise before it fails with the first rejection: a run that fails never ends with
 * its own requests still going (retrying, waiting out a rate limit, writing into a cache folder after the run).
 */
export async function allSettledThenFirstError<T extends readonly unknown[] | []>(promises: T): Promise<{ -readonly [P in keyof T]: Awaited<T[P]> }> {
  const results = (await Promise.allSettled(promises)) as PromiseSettledResult<unknown>[];
  const values: unknown[] = [];
  for (const result of results) {
    if (result.status === 'rejected') throw result.reason;
    values.push(result.value);
  }
  return values as { -readonly [P in keyof T]: Awaited<T[P]> };
}
