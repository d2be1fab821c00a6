// The reference for a one-request command (`lk whoami`): the least any Node client can do for the same output, one
// GET /v1/me with node:http, its body piped to stdout, written as CommonJS (Node starts a CommonJS file ~25 ms sooner
// than an ES module, so an ES module reference would flatter lk). Run by bench/startup.mjs.
'use strict';
const { get } = require('node:http');

get(`${process.env.LK_BASE_URL}/v1/me`, { headers: { authorization: `Bearer ${process.env.LK_API_KEY}` } }, (response) => {
  response.pipe(process.stdout);
});
