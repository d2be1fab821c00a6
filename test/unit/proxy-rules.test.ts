import { describe, expect, it } from 'vitest';
import { maskProxy, proxyFor, proxySettingsFromEnv } from '../../src/api/transport.js';

const settings = (env: Record<string, string>) => proxySettingsFromEnv(env);
const via = (url: string, env: Record<string, string>) => proxyFor(new URL(url), settings(env));

describe('which requests go through the proxy (curl and undici rules)', () => {
  it('HTTPS_PROXY for https, HTTP_PROXY for http, HTTP_PROXY for https when HTTPS_PROXY is unset', () => {
    expect(via('https://a.example', { HTTPS_PROXY: 'http://s:1', HTTP_PROXY: 'http://p:1' })).toBe('http://s:1');
    expect(via('http://a.example', { HTTPS_PROXY: 'http://s:1', HTTP_PROXY: 'http://p:1' })).toBe('http://p:1');
    expect(via('https://a.example', { HTTP_PROXY: 'http://p:1' })).toBe('http://p:1');
    expect(via('http://a.example', { HTTPS_PROXY: 'http://s:1' })).toBeUndefined();
  });

  it('the lowercase variable wins', () => {
    expect(via('https://a.example', { https_proxy: 'http://low:1', HTTPS_PROXY: 'http://up:1' })).toBe('http://low:1');
    expect(via('https://a.example', { HTTPS_PROXY: 'http://p:1', no_proxy: 'a.example', NO_PROXY: 'other' })).toBeUndefined();
  });

  it.each([
    ['example.org', 'https://api.example.org', undefined],
    ['.example.org', 'https://api.example.org', undefined],
    ['*.example.org', 'https://api.example.org', undefined],
    ['example.org', 'https://example.org', undefined],
    ['example.org', 'https://badexample.org', 'http://p:1'],
    ['*', 'https://anything.example', undefined],
    ['a.example:8443', 'https://a.example:8443', undefined],
    ['a.example:8443', 'https://a.example', 'http://p:1'],
    ['EXAMPLE.ORG', 'https://Api.Example.org', undefined],
    ['one.example, two.example', 'https://two.example', undefined],
  ])('NO_PROXY=%s, %s → %s', (noProxy, url, expected) => {
    expect(via(url, { HTTPS_PROXY: 'http://p:1', NO_PROXY: noProxy })).toBe(expected);
  });

  it('credentials in a proxy URL are masked like a key', () => {
    expect(maskProxy('http://user:secret@proxy.corp:3128')).toBe('http://***:***@proxy.corp:3128');
    expect(maskProxy('http://token@proxy.corp:3128')).toBe('http://***@proxy.corp:3128');
    expect(maskProxy('proxy.corp:3128')).toBe('http://proxy.corp:3128');
  });
});

it('a proxy without a scheme is http, as in curl', () => {
  expect(proxySettingsFromEnv({ HTTPS_PROXY: 'proxy.corp:3128' }).httpsProxy).toBe('http://proxy.corp:3128');
});
