import type * as z from 'zod';
// Before any schema is built: in the browser, zod must not try `new Function` (see common.ts).
import './common';

/** One problem in an import file, by line (or record) number and field path. */
export type ImportError = {
  /** 1-based line of a JSONL file, or 1-based record of a JSON array; 0 for the file as a whole. */
  line: number;
  /** Field path such as `steps[2].speaker` (indices 0-based as in the JSON); '' for the whole record. */
  path: string;
  /** Plain English, written to follow the path: "steps[2].speaker must be one of tutor, student". */
  message: string;
};

type Issue = z.core.$ZodIssue;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `['steps', 2, 'speaker']` → `steps[2].speaker`; odd keys are quoted: `labels["a b"]`. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else {
      const key = String(segment);
      out += IDENTIFIER.test(key) ? (out ? `.${key}` : key) : `[${JSON.stringify(key)}]`;
    }
  }
  return out;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
  record: 'an object',
  null: 'null',
};

function typeName(expected: string): string {
  return TYPE_NAMES[expected] ?? `of type ${expected}`;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : typeof value;
}

/** Whether an invalid_type issue is about a missing value. */
function isMissing(issue: Issue): boolean {
  if ('input' in issue) return issue.input === undefined;
  // Issues parsed without `reportInput` carry no input; zod's own message says it.
  return /received undefined$/.test(issue.message);
}

function received(issue: Issue): string | null {
  if ('input' in issue) return describeValue(issue.input);
  const m = /received (\w+)$/.exec(issue.message);
  return m ? m[1] : null;
}

function listValues(values: readonly unknown[]): string {
  return values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
}

/** A plain English message for one zod issue, meant to follow the field path. */
export function issueMessage(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type': {
      if (isMissing(issue)) return 'is required';
      const got = received(issue);
      return `must be ${typeName(issue.expected)}${got ? ` (got ${got})` : ''}`;
    }
    case 'invalid_value': {
      const allowed = issue.values.length === 1 ? JSON.stringify(issue.values[0]) : `one of ${listValues(issue.values)}`;
      return 'input' in issue && issue.input === undefined ? `is required: ${allowed}` : `must be ${allowed}`;
    }
    case 'invalid_union': {
      if (issue.discriminator !== undefined && 'options' in issue && issue.options) {
        return `must be one of ${listValues(issue.options)}`;
      }
      // e.g. string | number: every branch failed on the value's type alone.
      const expected = issue.errors.map((branch) =>
        branch.length === 1 && branch[0].code === 'invalid_type' && branch[0].path.length === 0 ? branch[0].expected : null,
      );
      if (issue.errors.length > 0 && expected.every((e) => e !== null)) {
        if (issue.errors[0].length === 1 && isMissing(issue.errors[0][0])) return 'is required';
        return `must be ${expected.map((e) => typeName(e as string)).join(' or ')}`;
      }
      return 'does not match any of the allowed forms';
    }
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') {
        return min === 1 ? 'must be a non-empty string' : `must be at least ${min} characters long`;
      }
      if (issue.origin === 'array' || issue.origin === 'set') {
        return min === 1 ? 'must have at least one item' : `must have at least ${min} items`;
      }
      return issue.inclusive === false ? `must be greater than ${min}` : `must be at least ${min}`;
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return `must be at most ${max} characters long`;
      if (issue.origin === 'array' || issue.origin === 'set') return `must have at most ${max} items`;
      return issue.inclusive === false ? `must be less than ${max}` : `must be at most ${max}`;
    }
    case 'invalid_format':
      return issue.format === 'regex' && issue.pattern
        ? `must match the pattern ${issue.pattern.replace(/^\/(.*)\/[a-z]*$/, '$1')}`
        : `must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'unrecognized_keys':
      return `has unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')}`;
    case 'invalid_key':
      // The path already ends in the offending key; say what is wrong with it.
      return issue.issues.length > 0 ? issue.issues.map(issueMessage).join('; ') : 'is not an allowed key';
    case 'invalid_element':
      return `has an invalid element: ${issue.issues.map(issueMessage).join('; ')}`;
    default:
      // 'custom' issues carry messages written for this purpose by our schemas.
      return issue.message;
  }
}

/** Every issue of a failed parse as an ImportError on `line`. */
export function zodIssuesToImportErrors(line: number, error: { issues: readonly Issue[] }): ImportError[] {
  return error.issues.map((issue) => ({
    line,
    path: formatIssuePath(issue.path),
    message: issueMessage(issue),
  }));
}
