import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWellFormedKey, makeKey, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { Rng } from '../../src/sandbox/rng.js';
import { call, clock, NOW } from './helpers.js';

let sandbox: Sandbox;
const time = clock(NOW);

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: 0, now: time.now });
});
afterAll(() => sandbox.close());

describe('demo keys', () => {
  it('are full, library, nogames, expired, revoked, other and calendar, each passing the checksum', () => {
    expect(sandbox.keys.map((key) => key.name)).toEqual(['full', 'library', 'nogames', 'expired', 'revoked', 'other', 'calendar']);
    for (const key of sandbox.keys) expect(isWellFormedKey(key.key)).toBe(true);
    expect(new Set(sandbox.keys.map((key) => key.key)).size).toBe(sandbox.keys.length);
  });

  it('key(name) returns a key and throws on an unknown name', () => {
    expect(sandbox.key('full')).toBe(sandbox.keys[0]!.key);
    expect(() => sandbox.key('nope')).toThrow(/nope/);
  });

  it('the expired key expired yesterday relative to the clock', () => {
    const expired = sandbox.keys.find((key) => key.name === 'expired')!;
    expect(Date.parse(expired.expiresAt!)).toBe(NOW - 86_400_000);
  });
});

describe('authentication', () => {
  it('a request without Authorization gets 401 auth.missing_key', async () => {
    const response = await call(sandbox, '/v1/me', { key: null });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('auth.missing_key');
    expect(typeof response.body.message).toBe('string');
  });

  it('a header that is not "Bearer <key>" gets 401 auth.malformed_key', async () => {
    const response = await call(sandbox, '/v1/me', { authorization: `Basic ${sandbox.key('full')}` });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('auth.malformed_key');
  });

  it('a key not matching lk_[0-9A-Za-z]{49} gets 401 auth.malformed_key', async () => {
    for (const bad of ['lk_short', `${sandbox.key('full')}x`, sandbox.key('full').replace('lk_', 'xx_')]) {
      const response = await call(sandbox, '/v1/me', { authorization: `Bearer ${bad}` });
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('auth.malformed_key');
    }
  });

  it('a key failing the checksum gets 401 before any lookup (auth.invalid_checksum, not auth.invalid_key)', async () => {
    const full = sandbox.key('full');
    const typo = full.slice(0, 10) + (full[10] === 'Z' ? 'Y' : 'Z') + full.slice(11);
    const response = await call(sandbox, '/v1/me', { authorization: `Bearer ${typo}` });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('auth.invalid_checksum');
  });

  it('a well-formed key the instance does not know gets 401 auth.invalid_key', async () => {
    const response = await call(sandbox, '/v1/me', { authorization: `Bearer ${makeKey(new Rng(999))}` });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('auth.invalid_key');
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('a revoked key gets 401 auth.key_revoked and an expired key 401 auth.key_expired', async () => {
    const revoked = await call(sandbox, '/v1/me', { key: 'revoked' });
    expect([revoked.status, revoked.body.code]).toEqual([401, 'auth.key_revoked']);
    const expired = await call(sandbox, '/v1/me', { key: 'expired' });
    expect([expired.status, expired.body.code]).toEqual([401, 'auth.key_expired']);
  });

  it('a key lacking the scope gets 403 auth.api_key_forbidden naming the scope, in the message and in `scope`', async () => {
    const response = await call(sandbox, '/v1/library', { key: 'calendar' });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('auth.api_key_forbidden');
    expect(response.body.scope).toBe('library:read');
    expect(response.body.message).toContain('library:read');
  });

  it.each([
    ['/v1/library', 'library:read'],
    ['/v1/history', 'library:read'],
    ['/v1/lists', 'lists:read'],
    ['/v1/calendar', 'calendar:read'],
    ['/v1/stats/summary', 'stats:read'],
    ['/v1/reviews', 'reviews:read'],
    ['/v1/profile', 'profile:read'],
    ['/v1/profile/achievements', 'profile:read'],
    ['/v1/notifications', 'notifications:read'],
    ['/v1/export', 'export:read'],
  ])('%s needs %s (the library-only key gets 403 unless it is library:read)', async (path, scope) => {
    const response = await call(sandbox, path, { key: 'library' });
    if (scope === 'library:read') expect(response.status).toBe(200);
    else expect([response.status, response.body.scope]).toEqual([403, scope]);
  });

  it('GET /v1/me answers any valid key, whatever its scopes', async () => {
    const response = await call(sandbox, '/v1/me', { key: 'calendar' });
    expect(response.status).toBe(200);
    expect(response.body.key.scopes).toEqual(['calendar:read']);
  });
});

describe('HTTP surface', () => {
  it('an unknown path gets 404 {code: "not_found", message}', async () => {
    const response = await call(sandbox, '/v1/nothing-here');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ code: 'not_found', message: expect.any(String) });
  });

  it('any method other than GET gets 405 with Allow', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const response = await call(sandbox, '/v1/library', { method });
      expect(response.status).toBe(405);
      expect(response.body.code).toBe('request.method_not_allowed');
      expect(response.headers.get('allow')).toContain('GET');
    }
  });

  it('answers JSON with charset and Content-Length, and allows any origin without credentials', async () => {
    const response = await call(sandbox, '/v1/me');
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(response.text));
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('an OPTIONS preflight gets 204 allowing the Authorization header, with no key needed', async () => {
    const response = await call(sandbox, '/v1/library', {
      method: 'OPTIONS',
      key: null,
      headers: { origin: 'https://example.org', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-headers')).toMatch(/Authorization/i);
    expect(response.headers.get('access-control-allow-methods')).toContain('GET');
  });

  it('counts every request by path and status and records raw Authorization headers in order', async () => {
    sandbox.resetCounters();
    await call(sandbox, '/v1/me?lang=fr');
    await call(sandbox, '/v1/nope', { key: 'library' });
    await call(sandbox, '/v1/me', { key: null });
    expect(sandbox.counters.requests).toBe(3);
    expect(sandbox.counters.byPath).toEqual({ '/v1/me': 2, '/v1/nope': 1 });
    expect(sandbox.counters.byStatus).toEqual({ '200': 1, '404': 1, '401': 1 });
    expect(sandbox.counters.authorizationHeaders).toEqual([`Bearer ${sandbox.key('full')}`, `Bearer ${sandbox.key('library')}`]);
  });
});
