// The floor for `lk library --all`: a plain undici loop fetching every page of /v1/library (limit 100) one after
// another and writing each body to stdout untouched. Run by bench/throughput.mjs with LK_BASE_URL and LK_API_KEY.
import { Agent, request } from 'undici';

const base = process.env.LK_BASE_URL;
const headers = { authorization: `Bearer ${process.env.LK_API_KEY}` };
const dispatcher = new Agent({ keepAliveTimeout: 10_000 });
for (let page = 1; ; page++) {
  const { statusCode, body } = await request(`${base}/v1/library?limit=100&page=${page}`, { headers, dispatcher });
  const text = await body.text();
  if (statusCode !== 200) throw new Error(`page ${page}: ${statusCode} ${text.slice(0, 200)}`);
  if (!process.stdout.write(text)) await new Promise((resolve) => process.stdout.once('drain', resolve));
  if (!JSON.parse(text).hasMore) break;
}
await dispatcher.close();
