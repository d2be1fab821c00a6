// The least any undici-based client can do for `lk whoami`'s output: one GET /v1/me with undici and nothing else,
// written as CommonJS like the other references (an ES module starts ~25 ms later and would flatter lk). Shown beside
// the node:http GET by bench/startup.mjs.
'use strict';
const { request } = require('undici');

request(`${process.env.LK_BASE_URL}/v1/me`, { headers: { authorization: `Bearer ${process.env.LK_API_KEY}` } })
  .then(({ body }) => body.text())
  .then((text) => process.stdout.write(text));
