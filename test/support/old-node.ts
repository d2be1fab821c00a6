import { startTestBed, type RunResult } from '../e2e/harness.js';
import { tempDir } from './temp-dir.js';

/**
 * `lk ARGS` on a Node without node:sqlite, against a small sandbox, with data and cache folders of its own: what the
 * mirror's commands answer there (one line naming Node 22.13, exit 1), and the data folder to check nothing was written.
 */
export async function runOnOldNode(args: string[]): Promise<RunResult & { dataDir: string }> {
  const bed = await startTestBed({ entries: 5, rateLimit: 0 });
  try {
    const dataDir = tempDir('lk-old-node-');
    const result = await bed.lk(args, { env: { LK_DATA_DIR: dataDir, LK_CACHE_DIR: tempDir('lk-old-node-cache-') } });
    return { ...result, dataDir };
  } finally {
    await bed.sandbox.close();
  }
}
