// A reference for `lk whoami`: the least any undici-based client can do, one GET /v1/me with undici and nothing
// else (with the same V8 setting lk uses, see src/api/client.ts). Run by bench/startup.mjs.
import { setFlagsFromString } from 'node:v8';
import { request } from 'undici';

setFlagsFromString('--liftoff-only');
const { body } = await request(`${process.env.LK_BASE_URL}/v1/me`, { headers: { authorization: `Bearer ${process.env.LK_API_KEY}` } });
process.stdout.write(await body.text());
