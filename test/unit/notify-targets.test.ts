import { describe, expect, it } from 'vitest';
import { maskedNotifyList, SETTINGS } from '../../src/config/settings.js';
import { retryAfterMs } from '../../src/notify/http.js';
import { discordBody, discordWebhook } from '../../src/notify/send/discord.js';
import { jsonRequest } from '../../src/notify/send/json.js';
import { foldedSubject } from '../../src/notify/send/mailto.js';
import { headerText } from '../../src/notify/send/ntfy.js';
import { hideSecrets, parseTarget, parseTargets } from '../../src/notify/targets.js';
import { UsageError } from '../../src/util/errors.js';
import { maskTargetUrl } from '../../src/util/target-mask.js';

// Issue 48: lk notify's target URLs as data — what a target is, what is shown of it, what is refused (exit 2).
// Issue 56: one mask everywhere, one identity per place reached, Apprise's parameters taken or refused.

const one = (raw: string, apprise = false) => {
  const targets = parseTarget(raw, apprise);
  expect(targets).toHaveLength(1);
  return targets[0]!;
};

describe('notify targets', () => {
  it('a target is its URL without the password: scheme and host in any case, the query in any order', () => {
    const a = one('NTFY://ann:one@Ntfy.Example.org:8080/topic?tags=b&click=https://x.example');
    const b = one('ntfy://ann:two@ntfy.example.org:8080/topic/?click=https://x.example&tags=b');
    expect(a.identity).toBe('ntfy://ann@ntfy.example.org:8080/topic?click=https%3A%2F%2Fx.example&tags=b');
    expect(b.id).toBe(a.id);
    expect(one('ntfy://bob:one@ntfy.example.org:8080/topic?tags=b&click=https://x.example').id).not.toBe(a.id);
  });

  it('one topic spelt several ways is one target: default ports, ntfy:// and ntfys://', () => {
    const spellings = ['ntfy://h.example/t', 'ntfy://h.example:80/t', 'ntfys://h.example/t', 'ntfys://h.example:443/t', 'ntfy://:pw@h.example/t'];
    expect(parseTargets(spellings, false)).toHaveLength(1);
    expect(parseTargets(['ntfy://h.example:8080/t', 'ntfy://h.example/t'], false)).toHaveLength(2);
    expect(parseTargets(['mailto://me:pw@m.example:587?to=a@b.example', 'mailto://me:pw@m.example?to=a@b.example'], false)).toHaveLength(1);
    // What an earlier lk recorded for a spelling stays taken: its former id is kept.
    expect(one('ntfys://h.example/t').formerIds).toHaveLength(1);
    expect(one('ntfys://h.example/t').formerIds[0]).not.toBe(one('ntfy://h.example/t').formerIds[0]);
  });

  it("ntfy's several topics are one target each, as Apprise sends one message to each", () => {
    const topics = parseTarget('ntfys://me:pw@ntfy.example.org/first/second', false);
    expect(topics.map((target) => target.url.pathname)).toEqual(['/first', '/second']);
    expect(topics.every((target) => target.url.username === 'me' && target.url.password === 'pw')).toBe(true);
  });

  it('one mask, the one lk config get shows: a host name, a port, a login, the query names; nothing secret', () => {
    const cases: Array<[string, string]> = [
      ['ntfys://ntfy.sh/lk-Secret-Topic', 'ntfys://ntfy.sh/***'],
      ['ntfys://me:pa55word@ntfy.sh/lk-topic', 'ntfys://me:***@ntfy.sh/***'],
      ['ntfy://tk_AbCdEf123456@ntfy.example.org/topic', 'ntfy://***@ntfy.example.org/***'],
      ['mailto://me:pw@mail.example.org:587?to=me@example.org&from=lk@example.org', 'mailto://me:***@mail.example.org:587?to=***&from=***'],
      ['discord://1234567890/Tok3n-Very-Secret', 'discord://***/***'],
      ['discord://1234567890/Tok3n-Very-Secret/', 'discord://***/***'],
      ['json://hooks.example.org/in?+X-Token=abcdef&-foo=bar', 'json://hooks.example.org/***?+X-Token=***&-foo=***'],
      ['pover://userkey@apptoken', 'pover://***@***'],
      ['pagerduty://integrationkey@apikey/', 'pagerduty://***@***'],
      ['slack://T1JJ3T3L2/A1BRTD4JD/TIiajkdnl/#general', 'slack://***/***'],
      ['tgram://123456:AAH-bot-Token/chat', 'tgram://***'],
    ];
    for (const [raw, masked] of cases) expect([raw, maskTargetUrl(raw)]).toEqual([raw, masked]);
    expect(one('discord://1234567890/Tok3n-Very-Secret/').masked).toBe('discord://***/***');
    expect(one('tgram://123456:AAH-bot-Token/chat', true).masked).toBe('tgram://***');
    expect(maskedNotifyList('ntfys://ntfy.sh/a mailto://me:pw@m.example.org?to=x@y.org tgram://BOTTOKEN/chat')).toBe(
      'ntfys://ntfy.sh/*** mailto://me:***@m.example.org?to=*** tgram://***/***',
    );
  });

  it("hides a target's secrets in text about it (a service's answer, apprise's words)", () => {
    const target = one('discord://1234567890/Tok3n-Very-Secret/');
    expect(hideSecrets('POST https://discord.com/api/webhooks/1234567890/Tok3n-Very-Secret: 401', target)).toBe(
      'POST https://discord.com/api/webhooks/***/***: 401',
    );
    const mail = one('mailto://me:S%40cret@mail.example.org?to=me@example.org');
    expect(hideSecrets('auth failed for S@cret and S%40cret', mail)).toBe('auth failed for *** and ***');
    expect(hideSecrets('no topic lk-Secret-Topic here', one('ntfys://ntfy.sh/lk-Secret-Topic'))).toBe('no topic *** here');
    expect(hideSecrets('Unparseable URL tgram://123456:AAH-bot-Token/chat', one('tgram://123456:AAH-bot-Token/chat', true))).not.toMatch(
      /123456|AAH-bot-Token/,
    );
  });

  it('refuses a URL lk cannot send to, naming the schemes it knows and never repeating the URL (exit 2)', () => {
    const refusal = (raw: string, apprise = false) => {
      try {
        parseTarget(raw, apprise);
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return (error as UsageError).message + String((error as UsageError).hint);
      }
      throw new Error(`accepted ${raw}`);
    };
    expect(refusal('tgram://bot/chat')).toMatch(/^lk cannot send to tgram:\/\/ URLs itself, and no apprise command is on PATH/);
    expect(refusal('tgram://bot/chat')).toContain('ntfy://, ntfys://, json://, jsons://, mailto://, mailtos://, discord://');
    expect(refusal('ntfy://host.example')).toMatch(/expected a topic after the host/);
    expect(refusal('discord://only-id')).toMatch(/expected the webhook id and token/);
    expect(refusal('mailto://me:pw@mail.example.org')).toMatch(/no address to send to/);
    expect(refusal('ntfys://me:Secret@mail.example.org:x/t')).toMatch(/^invalid notify URL ntfys:\/\/\*\*\*: expected scheme/);
    expect(refusal('no url at all')).toMatch(/^invalid notify URL \(not a URL\)/);
    // Apprise's forms lk sends itself are taken; any other parameter is refused, named, never dropped.
    expect(refusal('ntfy://h.example/t?priority=high&delay=10m')).toMatch(/lk does not send ntfy:\/\/'s parameter "delay"/);
    expect(refusal('ntfy://h.example/t?priority=loud')).toMatch(/priority= names no ntfy priority/);
    expect(refusal('json://h.example/in?method=BREW')).toMatch(/method= names no HTTP method/);
    expect(refusal('json://h.example/in?token=abc')).toMatch(/parameter "token"/);
    expect(refusal('discord://1/abc?tts=yes')).toMatch(/parameter "tts"/);
    expect(refusal('mailto://me:pw@mail.example.org?to=a@b.example&cc=c@d.example')).toMatch(/parameter "cc"/);
    expect(refusal('ntfy://h.example/t?priority=high&delay=10m')).not.toContain('10m');
    // A scheme lk does not send itself goes to apprise as written, even when it is no URL to WHATWG.
    expect(one('tgram://123456:AAH-bot-Token/chat', true).raw).toBe('tgram://123456:AAH-bot-Token/chat');
    expect(one('mailto://user:pass@gmail.com').builtIn).toBe('mailto');
  });

  it("json://'s +header, -query, :payload and method, as Apprise builds them", () => {
    const message = { kind: 'notification' as const, key: 'notification:n1', title: 'New follower', body: 'Ann follows you.' };
    const request = jsonRequest(new URL('json://hooks.example.org:8080/in?+X-Token=abc&-foo=bar&:extra=1&method=put'), message);
    expect(request.method).toBe('PUT');
    expect(request.url.href).toBe('http://hooks.example.org:8080/in?foo=bar');
    expect(request.headers['x-token']).toBe('abc');
    expect(JSON.parse(request.body)).toEqual({
      version: '1.0',
      title: 'New follower',
      message: 'Ann follows you.',
      attachments: [],
      type: 'info',
      extra: '1',
    });
  });

  it('the config list notify: checked on set, shown masked', () => {
    expect(SETTINGS.notify.parse(' ntfy://ntfy.sh/a   mailto://me:pw@m.example.org?to=x@y.org ')).toBe(
      'ntfy://ntfy.sh/a mailto://me:pw@m.example.org?to=x@y.org',
    );
    expect(() => SETTINGS.notify.parse('ntfy://ntfy.sh/a secret-not-a-url')).toThrow(/invalid notify URL \(not a URL\)/);
  });

  it("builds what each service reads: Discord's webhook and mentions, ntfy's Title header, a mail's Subject, a Retry-After", () => {
    expect(discordWebhook(new URL('discord://123/abc-DEF')).href).toBe('https://discord.com/api/webhooks/123/abc-DEF');
    expect(discordWebhook(new URL('discord://123/abc-DEF/')).href).toBe('https://discord.com/api/webhooks/123/abc-DEF');
    const message = { kind: 'notification' as const, key: 'notification:n1', title: 'New follower', body: 'Ann follows you.' };
    expect(discordBody(message)).toEqual({ content: '**New follower**\nAnn follows you.', allowed_mentions: { parse: [] } });
    const long = discordBody({ ...message, body: 'x'.repeat(3000) }).content;
    expect([...long]).toHaveLength(2000);
    expect(long.endsWith('…')).toBe(true);
    expect(headerText('Plain title')).toBe('Plain title');
    expect(headerText('Élodie: “Hana”')).toBe(`=?UTF-8?B?${Buffer.from('Élodie: “Hana”').toString('base64')}?=`);
    expect(foldedSubject('Plain title')).toBe('Plain title');
    const title = `${'y'.repeat(1990)}é“”`;
    const folded = foldedSubject(title);
    expect(Math.max(...folded.split('\r\n').map((line) => line.length))).toBeLessThanOrEqual(78);
    const decoded = folded
      .split('\r\n ')
      .map((word) => Buffer.from(/^=\?UTF-8\?B\?(.*)\?=$/.exec(word)![1]!, 'base64'))
      .reduce((all, part) => Buffer.concat([all, part]), Buffer.alloc(0))
      .toString('utf8');
    expect(decoded).toBe(title);
    expect(retryAfterMs('37', 0)).toBe(37_000);
    expect(retryAfterMs('0.5', 0)).toBe(500);
    expect(retryAfterMs('Thu, 01 Jan 1970 00:01:00 GMT', 30_000)).toBe(30_000);
    expect(retryAfterMs(undefined, 0)).toBeUndefined();
  });
});
