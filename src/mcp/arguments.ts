import type * as z from 'zod';

/**
 * A tool's bad arguments as one line an assistant can act on: each argument named with what was expected and what
 * came, under LINE_MOST characters (zod's own report is an issue list of many lines).
 */

const LINE_MOST = 300;

export function argumentsProblem(tool: string, error: z.ZodError): string {
  const parts = error.issues.map((issue) => {
    const name = issue.path.length > 0 ? issue.path.join('.') : 'arguments';
    return `${name}: ${expectation(issue)}`;
  });
  const line = `bad arguments for ${tool}: ${parts.join('; ')}`.replace(/\s+/g, ' ');
  return line.length <= LINE_MOST ? line : `${line.slice(0, LINE_MOST - 1)}…`;
}

function expectation(issue: z.core.$ZodIssue): string {
  const got = 'input' in issue ? `, got ${shown(issue.input)}` : '';
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? `missing (expected ${issue.expected})` : `expected ${issue.expected}${got}`;
    case 'too_small':
      return `expected ${issue.origin === 'string' ? `at least ${String(issue.minimum)} characters` : `at least ${String(issue.minimum)}`}${got}`;
    case 'too_big':
      return `expected ${issue.origin === 'string' ? `at most ${String(issue.maximum)} characters` : `at most ${String(issue.maximum)}`}${got}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map((value) => String(value)).join(', ')}${got}`;
    case 'invalid_format':
      return `expected ${issue.format === 'date' ? 'a date YYYY-MM-DD' : issue.format}${got}`;
    case 'unrecognized_keys':
      return `unknown ${issue.keys.length > 1 ? 'arguments' : 'argument'} ${issue.keys.join(', ')}`;
    default:
      return `${issue.message}${got}`;
  }
}

function shown(value: unknown): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}
