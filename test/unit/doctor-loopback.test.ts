import { describe, expect, it } from 'vitest';
import { plainHttpCheck } from '../../src/commands/doctor.js';

describe('lk doctor on a plain-http instance', () => {
  it.each(['http://localhost:8080', 'http://127.0.0.1:8080', 'http://127.3.4.5', 'http://[::1]:8080', 'http://app.localhost'])(
    '%s is loopback: ok',
    (url) => {
      expect(plainHttpCheck(new URL(url)).status).toBe('ok');
    },
  );

  it.each(['http://localhost.example.com', 'http://127.evil.example', 'http://localhostx:8080', 'http://192.168.1.10'])(
    '%s leaves the machine: a warning that the key travels unencrypted',
    (url) => {
      const check = plainHttpCheck(new URL(url));
      expect(check.status).toBe('warn');
      expect(check.message).toBe(`plain http to ${new URL(url).host}: the key travels unencrypted`);
    },
  );
});
