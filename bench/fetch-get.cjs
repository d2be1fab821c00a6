// Shown beside the node:http reference: the same GET /v1/me with Node's built-in fetch (CommonJS), which loads Node's
// internal undici on first use. Run by bench/startup.mjs.
'use strict';
fetch(`${process.env.LK_BASE_URL}/v1/me`, { headers: { authorization: `Bearer ${process.env.LK_API_KEY}` } })
  .then((response) => response.text())
  .then((text) => process.stdout.write(text));
