// A reference for `lk whoami`: the least any Node client can do, one GET /v1/me with node:http and nothing else.
// Run by bench/startup.mjs.
import { get } from 'node:http';

get(`${process.env.LK_BASE_URL}/v1/me`, { headers: { authorization: `Bearer ${process.env.LK_API_KEY}` } }, (response) => {
  response.pipe(process.stdout);
});
