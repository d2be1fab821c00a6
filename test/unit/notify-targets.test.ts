import { describe, expect, it } from 'vitest';
import { maskedNotifyList, SETTINGS } from '../../src/config/settings.js';
import { retryAfterMs } from '../../src/notify/http.js';
import { discordBody, discordWebhook } from '../../src/notify/send/discord.js';
import { headerText } from '../../src/notify/send/ntfy.js';
import { hideSecrets, parseTarget, parseTargets } from '../../src/notify/targets.js';
import { UsageError } from '../../src/util/errors.js';

// Issue 48: lk notify's target URLs as data — what a target is, what is shown of it, what is refused (exit 2).

describe('notify targets', () => {
  it('a target is its URL without the password: scheme and host in any case, the query in any order', () => {
    const a = parseTarget('NTFY://ann:one@Ntfy.Example.org:8080/topic?b=2&a=1', false);
    const b = parseTarget('ntfy://ann:two@ntfy.example.org:8080/topic/?a=1&b=2', false);
    expect(a.identity).toBe('ntfy://ann@ntfy.example.org:8080/topic?a=1&b=2');
    expect(b.id).toBe(a.id);
    expect(parseTarget('ntfy://bob:one@ntfy.example.org:8080/topic?a=1&b=2', false).id).not.toBe(a.id);
    expect(parseTargets(['ntfy://h.example/t', 'ntfy://:pw@h.example/t', 'ntfys://h.example/t'], false)).toHaveLength(2);
  });

  it('masks the password, query values but mailto addresses, discord tokens, and an apprise URL beyond its host name', () => {
    expect(parseTarget('ntfys://me:pa55word@ntfy.sh/lk-topic', false).masked).toBe('ntfys://me:***@ntfy.sh/lk-topic');
    expect(parseTarget('mailto://me:pw@mail.example.org:587?to=me@example.org&from=lk@example.org', false).masked).toBe(
      'mailto://me:***@mail.example.org:587?to=me@example.org&from=lk@example.org',
    );
    expect(parseTarget('discord://1234567890/Tok3n-Very-Secret', false).masked).toBe('discord://1234567890/***');
    expect(parseTarget('json://hooks.example.org/in?token=abcdef', false).masked).toBe('json://hooks.example.org/in?token=***');
    expect(parseTarget('pover://userkey@apptoken', true).masked).toBe('pover://userkey@***');
    expect(parseTarget('slack://T1JJ3T3L2/A1BRTD4JD/TIiajkdnl/#general', true).masked).toBe('slack://***/***/***/');
  });

  it("hides a target's secrets in text about it (a service's answer, apprise's words)", () => {
    const target = parseTarget('discord://1234567890/Tok3n-Very-Secret', false);
    expect(hideSecrets('POST https://discord.com/api/webhooks/1234567890/Tok3n-Very-Secret: 401', target)).toBe(
      'POST https://discord.com/api/webhooks/1234567890/***: 401',
    );
    const mail = parseTarget('mailto://me:S%40cret@mail.example.org?to=me@example.org', false);
    expect(hideSecrets('auth failed for S@cret and S%40cret', mail)).toBe('auth failed for *** and ***');
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
    expect(refusal('ntfy://host.example')).toMatch(/expected one topic after the host/);
    expect(refusal('discord://only-id')).toMatch(/expected the webhook id and token/);
    expect(refusal('mailto://me:pw@mail.example.org')).toMatch(/no address to send to/);
    expect(refusal('tgram://bot:Secret/chat')).toBe(
      'invalid notify URL tgram://***: expected scheme://…, such as ntfy://ntfy.sh/my-topic' +
        'lk sends to ntfy://, ntfys://, json://, jsons://, mailto://, mailtos://, discord:// itself; any other scheme goes to the apprise command.',
    );
    expect(refusal('no url at all')).toMatch(/^invalid notify URL \(not a URL\)/);
    expect(parseTarget('tgram://bot/chat', true).builtIn).toBeUndefined();
  });

  it('the config list notify: checked on set, shown only as scheme and host', () => {
    expect(SETTINGS.notify.parse(' ntfy://ntfy.sh/a   mailto://me:pw@m.example.org?to=x@y.org ')).toBe(
      'ntfy://ntfy.sh/a mailto://me:pw@m.example.org?to=x@y.org',
    );
    expect(() => SETTINGS.notify.parse('ntfy://ntfy.sh/a secret-not-a-url')).toThrow(/invalid notify URL \(not a URL\)/);
    expect(maskedNotifyList('ntfy://ntfy.sh/a mailto://me:pw@m.example.org?to=x@y.org tgram://BOTTOKEN/chat')).toBe(
      'ntfy://ntfy.sh/*** mailto://***@m.example.org/*** tgram://***/***',
    );
  });

  it("builds what each service reads: Discord's webhook, ntfy's Title header, a Retry-After", () => {
    expect(discordWebhook(new URL('discord://123/abc-DEF')).href).toBe('https://discord.com/api/webhooks/123/abc-DEF');
    const message = { kind: 'notification' as const, key: 'notification:n1', title: 'New follower', body: 'Ann follows you.' };
    expect(discordBody(message)).toEqual({ content: '**New follower**\nAnn follows you.' });
    expect(discordBody({ ...message, body: 'x'.repeat(3000) }).content).toHaveLength(2000);
    expect(headerText('Plain title')).toBe('Plain title');
    expect(headerText('Élodie: “Hana”')).toBe(`=?UTF-8?B?${Buffer.from('Élodie: “Hana”').toString('base64')}?=`);
    expect(retryAfterMs('37', 0)).toBe(37_000);
    expect(retryAfterMs('0.5', 0)).toBe(500);
    expect(retryAfterMs('Thu, 01 Jan 1970 00:01:00 GMT', 30_000)).toBe(30_000);
    expect(retryAfterMs(undefined, 0)).toBeUndefined();
  });
});
