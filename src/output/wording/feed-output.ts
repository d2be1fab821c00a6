import { readFile, stat } from 'node:fs/promises';
import type { IoStreams } from '../terminal/io.js';
import { emptyFeedNotice, feedUnchangedNotice, feedWrittenNotice, notesIncludedNotice } from './feed-text.js';

/** What src/feed/document.ts made. */
export interface ActivityFeed {
  text: string;
  entries: number;
  withNotes: number;
}

export interface ActivityFeedOutput {
  io: IoStreams;
  format: 'atom' | 'json';
  /** -o FILE: written whole or not at all (src/util/output-file.ts); stdout when undefined. */
  file: string | undefined;
}

/**
 * `lk feed`'s document to stdout or to the -o file. A regular file that already holds exactly these bytes is left as
 * it is: its modification time stays, so a static site's upload or a web server's ETag sees no change either.
 */
export async function renderActivityFeed(feed: ActivityFeed, output: ActivityFeedOutput): Promise<void> {
  const { io, file } = output;
  if (feed.withNotes > 0) io.info(notesIncludedNotice(feed.withNotes));
  if (file === undefined) {
    await io.write(feed.text);
    if (feed.entries === 0 && io.mayNotify) io.info(emptyFeedNotice());
    return;
  }
  if (await holdsExactly(file, feed.text)) {
    io.info(feedUnchangedNotice(file, feed.entries));
    return;
  }
  const { replaceFile } = await import('../../util/output-file.js');
  await replaceFile(file, feed.text, io);
  io.info(feedWrittenNotice(file, feed.entries, output.format));
}

async function holdsExactly(path: string, text: string): Promise<boolean> {
  try {
    // Only a regular file is read back: a FIFO or a device would block or consume.
    const existing = await stat(path);
    if (!existing.isFile() || existing.size !== Buffer.byteLength(text)) return false;
    return (await readFile(path, 'utf8')) === text;
  } catch {
    return false;
  }
}
