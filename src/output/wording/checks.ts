import type { OutputSession } from '../session.js';
import type { Check } from '../result.js';
import { sanitizeText } from '../terminal/sanitize.js';
import { prettyJson } from '../formats/pretty-json.js';

/** Checks as one JSON object (--json, or --jq to filter it), else a line each with its fix, coloured on a terminal. */
export async function writeChecks(checks: Check[], out: OutputSession): Promise<void> {
  if (out.format() === 'json') {
    const ok = !checks.some((check) => check.status === 'fail');
    const text = JSON.stringify({ ok, checks });
    // As every single object: indented and coloured on a terminal, one compact line in a pipe (and for --jq).
    const shown = out.io.stdoutIsTTY && out.flags.jq === undefined ? prettyJson(text, { colors: await out.colors() }) : text;
    await out.io.write(`${shown}\n`);
    return;
  }
  const colors = await out.colors();
  const mark = { ok: colors.green('ok  '), warn: colors.yellow('warn'), fail: colors.red('fail') };
  const lines = checks.map((check) => {
    const fix = check.fix ? `\n      ${colors.dim(`→ ${sanitizeText(check.fix)}`)}` : '';
    return `${mark[check.status]}  ${colors.bold(check.id.padEnd(10))}${sanitizeText(check.message)}${fix}`;
  });
  await out.io.write(`${lines.join('\n')}\n`);
}
