// The floor for `lk library --all`: a minimal undici loop over every page of /v1/library (limit 100) with 4 pages in
// flight, as lk pages, writing in page order until a page says hasMore: false. Run by bench/throughput.mjs with
// LK_BASE_URL and LK_API_KEY. It prints each body untouched: no client can print with less work than that.
import { Agent, request } from 'undici';

const IN_FLIGHT = 4;
const base = process.env.LK_BASE_URL;
const headers = { authorization: `Bearer ${process.env.LK_API_KEY}` };
const dispatcher = new Agent({ keepAliveTimeout: 10_000 });

async function fetchPage(page) {
  const { statusCode, body } = await request(`${base}/v1/library?limit=100&page=${page}`, { headers, dispatcher });
  const text = await body.text();
  if (statusCode !== 200) throw new Error(`page ${page}: ${statusCode} ${text.slice(0, 200)}`);
  return text;
}

let next = 1;
const pending = Array.from({ length: IN_FLIGHT }, () => fetchPage(next++));
while (pending.length > 0) {
  const text = await pending.shift();
  const page = JSON.parse(text);
  if (!process.stdout.write(text)) await new Promise((resolve) => process.stdout.once('drain', resolve));
  if (!page.hasMore) break;
  pending.push(fetchPage(next++));
}
// Pages asked for past the end (at most IN_FLIGHT - 1) answer empty; they are let finish before closing.
await Promise.allSettled(pending);
await dispatcher.close();
