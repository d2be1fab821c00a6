import { join } from 'node:path';
import { UsageError } from '../util/errors.js';
import type { Document, DocumentBody, DocumentTarget, Written } from './result.js';
import type { OutputSession } from './session.js';
import { replaceFile, createFolder, failingAs } from '../util/output-file.js';
import { writeFileAtomic, writeFolderAtomic } from '../util/atomic-file.js';
import { isJsonText, prettyJson } from './formats/pretty-json.js';
import { formatBytes } from '../util/units.js';
import { readFile, stat } from 'node:fs/promises';

/**
 * The one place a document is written (src/output/result.ts `Document`): where it goes is settled first (-o, the
 * command's own file or folder, a terminal that must not take binary), then the command makes the bytes, and they go
 * to stdout or into files, each whole or not at all (src/util/output-file.ts, src/util/atomic-file.ts).
 */
export async function showDocument(document: Document, out: OutputSession): Promise<void> {
  const target = documentTarget(document, out);
  const body = await document.make(target);
  const written = await put(body, document, target, out);
  const said = body.said?.(written) ?? (written.to === 'stdout' ? [] : [await wroteLine(written, body)]);
  for (const line of said) out.io.info(line);
  if (written.to === 'stdout' && body.empty !== undefined && out.io.mayNotify) out.io.info(body.empty);
  await body.after?.(written);
}

/** Where the bytes go, checked before any of them is made: nothing is asked of the server for a refused run. */
function documentTarget(document: Document, out: OutputSession): DocumentTarget {
  if (document.folder !== undefined) return { to: 'folder', dir: document.folder };
  const path = out.flags.output ?? document.file;
  if (path === '') throw new UsageError('-o/--output needs a path');
  if (path === undefined || path === '-') {
    if (typeof document.terminal === 'object' && out.io.stdoutIsTTY) throw document.terminal.refuse;
    return { to: 'stdout' };
  }
  if (out.flags.jq !== undefined)
    throw new UsageError('--jq prints to stdout: it does not combine with -o', 'Redirect instead: lk … --jq EXPR > FILE');
  return { to: 'file', path };
}

async function put(body: DocumentBody, document: Document, target: DocumentTarget, out: OutputSession): Promise<Written> {
  if (target.to === 'stdout') {
    if (body.data !== undefined) await toStdout(body.data, document, out);
    return { to: 'stdout', paths: [], bytes: 0 };
  }
  return target.to === 'folder' ? intoFolder(target.dir, body) : toFiles(target.path, body, out);
}

/** The file, then the files beside it, each whole or not at all (src/util/output-file.ts says how, link or FIFO). */
async function toFiles(path: string, body: DocumentBody, out: OutputSession): Promise<Written> {
  const written: Written = { to: 'files', paths: [], bytes: 0 };
  if (body.data !== undefined) {
    const data = wholeBytes(body.data);
    if (body.keepIdentical && (await holdsExactly(path, data))) return { to: 'unchanged', paths: [path], bytes: byteLength(data) };
    await replaceFile(path, data, out.io);
    written.paths.push(path);
    written.bytes = byteLength(data);
  }
  for (const file of body.beside ?? []) {
    await replaceFile(file.path, file.data, out.io);
    written.paths.push(file.path);
  }
  return written;
}

/** A new file, or a new folder of files, in the folder (created when missing, not its parents): whole or not at all. */
async function intoFolder(dir: string, body: DocumentBody): Promise<Written> {
  const { entry } = body;
  if (!entry) throw new Error('internal: a document for a folder names its entry');
  await failingAs(`cannot create ${dir}`, () => createFolder(dir));
  const path = join(dir, entry.name);
  if (entry.files) {
    await failingAs(`cannot write ${path}`, () => writeFolderAtomic(path, entry.files!));
    return { to: 'folder', paths: [path], bytes: 0 };
  }
  const data = wholeBytes(body.data);
  await failingAs(`cannot write ${path}`, () => writeFileAtomic(path, data));
  return { to: 'folder', paths: [path], bytes: byteLength(data) };
}

/** A file takes the bytes whole: a stream of items is for stdout. */
function wholeBytes(data: DocumentBody['data']): string | Uint8Array {
  if (data === undefined || (typeof data === 'object' && 'items' in data)) throw new Error('internal: a file takes whole bytes');
  return data;
}

/** On stdout as the document's `terminal` says: through --jq and the pager, like any output. */
async function toStdout(data: NonNullable<DocumentBody['data']>, document: Document, out: OutputSession): Promise<void> {
  const { io } = out;
  if (typeof data === 'object' && 'items' in data) return writeItems(data.items, out);
  if (typeof data !== 'string' || !io.stdoutIsTTY) return io.write(data);
  if (document.terminal === 'exact') return io.writeExact(data);
  if (document.terminal === 'json') {
    // For a person: indented and coloured, every number and string as it was spelled. Not JSON: exact, escaped.
    if (!isJsonText(data)) return io.writeExact(data);
    return io.write(`${prettyJson(data, { colors: await out.colors() })}\n`);
  }
  return io.write(data);
}

/** Items of every page as one JSON array, streamed: each page is written as it comes, as a listing's --json is. */
async function writeItems(items: AsyncIterable<unknown[]>, out: OutputSession): Promise<void> {
  const [{ json }, { genericView }] = await Promise.all([import('./formats/json.js'), import('./formats/view.js')]);
  const writer = json.listing(genericView([]), { ...(await out.outputOptions()), format: 'json', fields: undefined });
  for await (const page of items) await writer.write(page);
  await writer.end();
}

/** `lk: wrote FILE (SIZE)`, or for a folder `lk: wrote FOLDER/ (its files)`. */
async function wroteLine(written: Written, body: DocumentBody): Promise<string> {
  const files = body.entry?.files;
  if (written.to === 'folder' && files) return `lk: wrote ${written.paths[0]}/ (${files.map((file) => file.name).join(', ')})`;
  return `lk: wrote ${written.paths.join(', ')} (${formatBytes(written.bytes)})`;
}

function byteLength(data: string | Uint8Array): number {
  return typeof data === 'string' ? Buffer.byteLength(data) : data.length;
}

/** Only a regular file is read back: a FIFO or a device would block or be consumed. */
export async function holdsExactly(path: string, data: string | Uint8Array): Promise<boolean> {
  try {
    const existing = await stat(path);
    if (!existing.isFile() || existing.size !== byteLength(data)) return false;
    return Buffer.from(await readFile(path)).equals(typeof data === 'string' ? Buffer.from(data) : data);
  } catch {
    return false;
  }
}
