import { describe, expect, it } from 'vitest';
import { parseField, parseRawPath, RawInputError } from '../../src/api/raw-path.js';
import { hintFor, messageFor } from '../../src/output/wording/messages.js';

function refusal(parse: () => unknown): RawInputError {
  try {
    parse();
  } catch (error) {
    if (error instanceof RawInputError) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('lk api refusals are data, worded by output/wording/messages.ts', () => {
  it.each([
    ['https://evil.example/v1/me', 'full-url'],
    ['//evil.example/v1/me', 'scheme-relative'],
    ['/v1/%2e%2e/admin', 'encoded-separator'],
    ['/v1/../admin', 'dot-segment'],
    ['/v2/me', 'outside-v1'],
  ] as const)('%s is refused as %s, exit 2', (path, problem) => {
    const error = refusal(() => parseRawPath(path));
    expect(error.problem).toBe(problem);
    expect(error.exitCode).toBe(2);
  });

  it('a refused path reads "refusing path …" with the reason, and a hint naming a path under /v1', () => {
    const error = refusal(() => parseRawPath('https://evil.example/v1/me'));
    expect(messageFor(error)).toBe(
      'refusing path "https://evil.example/v1/me": a full URL; lk api takes a path and sends it to the configured instance',
    );
    expect(hintFor(error)).toMatch(/under \/v1/);
  });

  it('-F without "=" reads as an invalid field', () => {
    expect(messageFor(refusal(() => parseField('limit')))).toBe('invalid -F "limit": expected key=value, e.g. -F limit=5');
  });
});
