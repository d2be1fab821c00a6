// A reference for `lk whoami`: the least any undici-based client can do, one GET /v1/me with undici and nothing
// else. Run by bench/startup.mjs.
import { request } from 'undici';

const { body } = await request(`${process.env.LK_BASE_URL}/v1/me`, { headers: { authorization: `Bearer ${process.env.LK_API_KEY}` } });
process.stdout.write(await body.text());
