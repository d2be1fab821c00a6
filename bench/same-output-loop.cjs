// The reference for `lk library --all --ndjson`: the least a Node program can do for the same output. CommonJS
// (Node starts it sooner than an ES module), node:http with a keep-alive agent (it starts and parses faster than
// undici: bench/RESULTS.md), every page of /v1/library (limit 100) with 4 requests in flight as lk pages, written in
// page order, each item as one line (JSON.stringify, as lk writes it), until a page says hasMore: false. Run by
// bench/throughput.mjs and bench/lines.mjs with LK_BASE_URL and LK_API_KEY.
'use strict';
const http = require('node:http');

const IN_FLIGHT = 4;
const base = process.env.LK_BASE_URL;
const headers = { authorization: `Bearer ${process.env.LK_API_KEY}` };
const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });

function fetchPage(page) {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}/v1/library?limit=100&page=${page}`, { headers, agent }, (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => {
          if (response.statusCode !== 200) reject(new Error(`page ${page}: ${response.statusCode}`));
          else resolve(Buffer.concat(chunks));
        });
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

async function main() {
  let next = 1;
  const pending = Array.from({ length: IN_FLIGHT }, () => fetchPage(next++));
  while (pending.length > 0) {
    const page = JSON.parse((await pending.shift()).toString('utf8'));
    let out = '';
    for (const item of page.items) out += `${JSON.stringify(item)}\n`;
    const hasMore = page.hasMore;
    if (!process.stdout.write(out)) await new Promise((resolve) => process.stdout.once('drain', resolve));
    if (!hasMore) break;
    pending.push(fetchPage(next++));
  }
  // Pages asked for past the end (at most IN_FLIGHT - 1) answer empty; they are let finish before leaving.
  await Promise.allSettled(pending);
  agent.destroy();
}

main();
