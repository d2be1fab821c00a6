import { LkError, type NetworkWording, TransportError } from '../../util/errors.js';
import { formatBytes } from '../../util/units.js';
import type { Deadline } from './deadline.js';
import { transportErrorFrom } from './network-errors.js';
import type { Headers, RawResponse } from './transport.js';

export type { Headers } from './transport.js';

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** The body exactly as the server sent it. */
  text: string;
  /** The parsed body. */
  json: unknown;
}

export const DEFAULT_MAX_BODY_BYTES = 512 * 1024 * 1024;

/** The whole body: refused past `limit` bytes (announced or arrived), each chunk told to the deadline. */
export async function readBody(
  response: RawResponse,
  url: URL,
  limit: number,
  deadline: Deadline,
  onProgress: ((received: number, total: number | undefined) => void) | undefined,
  words: NetworkWording,
): Promise<Buffer> {
  const declared = Number(response.headers['content-length']);
  const total = Number.isFinite(declared) && declared > 0 ? declared : undefined;
  const tooLarge = () => new TransportError(`response from ${url.pathname} is larger than ${formatBytes(limit)}`, false);
  // Announced too large: refused before a byte of it is read.
  if (total !== undefined && total > limit) {
    response.discard();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body) {
      size += chunk.length;
      deadline.progress(chunk.length);
      if (size > limit) {
        response.discard();
        throw tooLarge();
      }
      chunks.push(chunk);
      onProgress?.(size, total);
    }
  } catch (error) {
    if (error instanceof LkError) throw error;
    if (deadline.expired) throw new TransportError(`GET ${url.pathname} failed: timed out (the response arrived too slowly)`, true);
    throw transportErrorFrom(error, url, words, 'body');
  }
  return Buffer.concat(chunks);
}

/** The response with its body parsed as JSON; a body that is not, or is compressed, or was cut short, is an error. */
export function parsed(response: ApiResponse, url: URL): ApiResponse {
  response.json = parseJson(response.text, response.headers, url);
  return response;
}

/**
 * A body whose length was known (Content-Length, or chunked to its end) arrived whole: a parse that fails later fails
 * the same way, so its parsing can wait. Any other body may have been cut short, which only parsing tells.
 */
export function arrivedWhole(headers: Headers): boolean {
  return headers['content-length'] !== undefined || /chunked/i.test(String(headers['transfer-encoding'] ?? ''));
}

/**
 * A page fetched ahead of its reader (paginate.ts), kept as bytes until read: bytes live outside V8's heap, where the
 * pages waiting in the queue cost the garbage collector nothing, whereas parsed pages that outlive a few collections
 * are promoted and grow the heap with the length of the listing (246 MB at 100,000 entries on Node 24).
 */
export class DeferredResponse implements ApiResponse {
  private parsedJson: unknown;
  private read = false;

  constructor(
    readonly status: number,
    readonly headers: Headers,
    private readonly bytes: Buffer,
    private readonly url: URL,
  ) {}

  get text(): string {
    return this.bytes.toString('utf8');
  }

  get json(): unknown {
    if (!this.read) {
      this.parsedJson = parseJson(this.text, this.headers, this.url);
      this.read = true;
    }
    return this.parsedJson;
  }

  set json(value: unknown) {
    this.parsedJson = value;
    this.read = true;
  }
}

function parseJson(text: string, headers: Headers, url: URL): unknown {
  const encoding = String(headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
  if (encoding !== '' && encoding !== 'identity') {
    // lk asks for no compression; a body encoded anyway cannot be read, and asking again will not change it.
    throw new TransportError(`the response from ${url.pathname} is compressed (${encoding.slice(0, 40)}), which lk did not ask for`, false);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const type = String(headers['content-type'] ?? 'no content type');
    if (error instanceof SyntaxError && /json/i.test(type) && !arrivedWhole(headers)) {
      throw new TransportError(`GET ${url.pathname} failed: the response was cut short`, true);
    }
    const reason =
      error instanceof RangeError ? 'is nested too deeply to read' : /json/i.test(type) ? 'is not valid JSON' : `is not JSON (${type.split(';')[0]})`;
    throw new TransportError(
      `the response from ${url.pathname} ${reason}`,
      false,
      /json/i.test(type) ? undefined : 'Is the base URL the API and not the web app?',
    );
  }
}
