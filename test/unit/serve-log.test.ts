import { describe, expect, it } from 'vitest';
import { serveLog, withoutSecrets } from '../../src/serve/log.js';

// Issue 57: every line lk serve logs goes through one function that leaves no secret in it.

describe('withoutSecrets', () => {
  const token = 'a-long-token-for-the-tests-0123456789';

  it('hides the token wherever it stands, plain or URL-encoded', () => {
    expect(withoutSecrets(`lk: serve: /mcp: Invalid URL: http://x:${token}@127.0.0.1:8787/mcp`, token)).not.toContain(token);
    expect(withoutSecrets(`failed for ${encodeURIComponent('tok/en+=value-of-more')}`, 'tok/en+=value-of-more')).toBe('failed for …');
  });

  it('hides any token= value, userinfo and Bearer credential, whoever the token is', () => {
    expect(withoutSecrets('lk: serve: /mcp: Invalid URL http://[::1]:8787/mcp?token=abcdef&x=1')).toBe(
      'lk: serve: /mcp: Invalid URL http://[::1]:8787/mcp?token=…&x=1',
    );
    expect(withoutSecrets('GET http://user:pass@nas.lan/mcp failed')).toBe('GET http://…@nas.lan/mcp failed');
    expect(withoutSecrets('header Authorization: Bearer abcdef was refused')).toBe('header Authorization: Bearer … was refused');
    expect(withoutSecrets('lk: serve: sync failed (timeout); next try in 1h')).toBe('lk: serve: sync failed (timeout); next try in 1h');
  });

  it('serveLog writes every line through it', () => {
    const lines: string[] = [];
    serveLog((line) => lines.push(line), token)(`a line with ${token} and ?token=${token}`);
    expect(lines).toEqual(['a line with … and ?token=…']);
  });
});
