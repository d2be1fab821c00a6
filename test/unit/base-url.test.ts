import { describe, expect, it } from 'vitest';
import { assertTransportAllowed, isLoopbackHost, normaliseBaseUrl } from '../../src/config/base-url.js';
import { UsageError } from '../../src/util/errors.js';
import { isWellFormedKey } from '../../src/config/key.js';
import { maskKey } from '../../src/util/redact.js';

describe('base URL', () => {
  it('keeps a reverse proxy path prefix and drops a trailing slash', () => {
    expect(normaliseBaseUrl('https://home.example.org/tracker/')).toBe('https://home.example.org/tracker');
    expect(normaliseBaseUrl('https://api.example.org')).toBe('https://api.example.org');
  });

  it.each([
    ['relative', '/v1'],
    ['not http', 'ftp://example.org'],
    ['credentials', 'https://user:pw@example.org'],
    ['a query', 'https://example.org/?a=1'],
    ['a fragment', 'https://example.org/#x'],
    ['the /v1 prefix itself', 'https://example.org/v1'],
  ])('refuses %s', (_what, url) => {
    expect(() => normaliseBaseUrl(url)).toThrow(UsageError);
  });

  it('allows plain http only on loopback or when the profile allows it', () => {
    expect(() => assertTransportAllowed('http://127.0.0.1:8080', false)).not.toThrow();
    expect(() => assertTransportAllowed('http://[::1]:8080', false)).not.toThrow();
    expect(() => assertTransportAllowed('http://localhost', false)).not.toThrow();
    expect(() => assertTransportAllowed('http://example.org', false)).toThrow(/plain http/);
    expect(() => assertTransportAllowed('http://nas.home', true)).not.toThrow();
    expect(isLoopbackHost('127.1.2.3')).toBe(true);
    expect(isLoopbackHost('128.0.0.1')).toBe(false);
  });
});

describe('keys', () => {
  it('checks the format SPEC.md fixes and masks all but the ends', () => {
    const key = `lk_${'A'.repeat(46)}9xYz`.slice(0, 52);
    expect(key).toHaveLength(52);
    expect(isWellFormedKey(key)).toBe(true);
    expect(isWellFormedKey(`${key}a`)).toBe(false);
    expect(isWellFormedKey(key.replace('A', '-'))).toBe(false);
    expect(maskKey(key)).toBe(`lk_AAA…${key.slice(-4)}`);
    expect(maskKey(key)).not.toContain(key.slice(6, -4));
  });
});
