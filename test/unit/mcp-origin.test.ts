import { describe, expect, it } from 'vitest';
import { foreignToMcp } from '../../src/serve/own-name.js';

// lk serve --mcp's DNS-rebinding rule (issue 49): Host and Origin must name the address the connection came in on,
// or loopback; an Origin its port too. What the request claims never widens it.

describe('foreignToMcp', () => {
  const loopback = { address: '127.0.0.1', port: 8787 };

  it('serves the loopback names and the address listened on, with or without Origin', () => {
    for (const host of ['127.0.0.1:8787', 'localhost:8787', '[::1]:8787', 'LOCALHOST:8787', 'localhost'])
      expect(foreignToMcp({ host }, loopback)).toBeUndefined();
    expect(foreignToMcp({ host: 'localhost:8787', origin: 'http://localhost:8787' }, loopback)).toBeUndefined();
    expect(foreignToMcp({}, loopback)).toBeUndefined();
  });

  it('refuses another name, another port, an Origin of null or another scheme, whatever the request says', () => {
    expect(foreignToMcp({ host: 'evil.example:8787' }, loopback)).toBe('Host evil.example:8787 is not this server');
    expect(foreignToMcp({ host: 'localhost:9999' }, loopback)).toBe('Host localhost:9999 is not this server');
    expect(foreignToMcp({ host: 'localhost:8787', origin: 'http://localhost:3000' }, loopback)).toBe(
      'Origin http://localhost:3000 is not this server',
    );
    expect(foreignToMcp({ host: 'localhost:8787', origin: 'null' }, loopback)).toBe('Origin null is not this server');
    expect(foreignToMcp({ host: 'localhost:8787', origin: 'file://localhost' }, loopback)).toBeDefined();
    expect(foreignToMcp({ host: 'localhost:8787', origin: 'https://localhost' }, loopback)).toBeDefined(); // port 443, not 8787
  });

  it('an Origin off loopback: the address the connection came in on (an IPv4 one mapped into IPv6 as itself), never a name', () => {
    const lan = { address: '::ffff:192.168.1.5', port: 8787 };
    expect(foreignToMcp({ host: '192.168.1.5:8787', origin: 'http://192.168.1.5:8787' }, lan, false)).toBeUndefined();
    expect(foreignToMcp({ host: 'nas.local:8787', origin: 'http://nas.local:8787' }, lan, false)).toBe(
      'Origin http://nas.local:8787 is not this server',
    );
    const v6 = { address: 'FE80::1', port: 80 };
    expect(foreignToMcp({ host: '[fe80::1]', origin: 'http://[fe80::1]' }, v6, false)).toBeUndefined();
    expect(foreignToMcp({ origin: 'http://192.168.1.5' }, v6, false)).toBeDefined();
  });

  // Issue 57: off loopback the token guards /mcp as it guards the documents; the Host names whatever the client used.
  it('off loopback any Host is served: a LAN name, a Tailscale name, a reverse proxy’s, another port', () => {
    const lan = { address: '::ffff:192.168.1.5', port: 8787 };
    for (const host of ['nas.local:8787', 'lk.tailnet-1234.ts.net', 'lk.example.org', 'nas.local:443', '192.168.1.5', '[fd7a:115c::1]:8787'])
      expect(foreignToMcp({ host }, lan, false), host).toBeUndefined();
  });

  it('a Host that is no host name (userinfo, a path, spaces) is refused anywhere', () => {
    for (const ownNamesOnly of [true, false])
      for (const host of ['user:secret@localhost:8787', 'secret@127.0.0.1', 'localhost:8787/x', 'local host', ''])
        expect(foreignToMcp({ host }, loopback, ownNamesOnly), host).toBe(`Host ${host} is not a host name`);
  });
});
