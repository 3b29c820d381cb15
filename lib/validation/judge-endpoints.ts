import { z } from 'zod';
// Before any schema is built: in the browser, zod must not try `new Function` (see common.ts).
import './common';

/*
 * The chat-completions endpoints an admin configures for judge runs (issue 21): the endpoint's name, base URL, the
 * NAME of the environment variable holding its key, the models leads may choose and the prices. Leads choose an
 * endpoint by name; the URL and the variable are an admin's setting (CONVENTIONS anti-pattern 9), and the rules
 * below hold for the command line too.
 */

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Variables whose value must never be sent to an endpoint, whoever configures it: they hold Concord's own secrets
 * and settings (AUTH_SECRET signs every session: whoever reads it can forge an admin's cookie), or describe the
 * machine and the Node process (PATH, HOME, NODE_OPTIONS …). Matched case-insensitively.
 */
const DENIED_KEY_VARIABLES: { pattern: RegExp; why: string }[] = [
  { pattern: /^(AUTH|NEXTAUTH)_/i, why: 'it belongs to sign-in (AUTH_SECRET signs every session)' },
  { pattern: /^CONCORD_/i, why: "it is one of Concord's own settings" },
  { pattern: /^(NODE|NPM|NEXT)_/i, why: 'it configures Node or Next.js' },
  {
    pattern:
      /^(PATH|HOME|USER|USERNAME|LOGNAME|SHELL|PWD|OLDPWD|HOSTNAME|TERM|LANG|LANGUAGE|TZ|TMPDIR|TEMP|TMP|MAIL|DISPLAY|EDITOR|PAGER|LC_\w+|LD_\w+|XDG_\w+|SSH_\w+|SUDO_\w+|DBUS_\w+)$/i,
    why: 'it describes the machine or the session, not an API key',
  },
];

/** Why `name` may not hold an endpoint's key, or null when it may. The one deny rule, used at save and at run time. */
export function keyVariableRefusal(name: string): string | null {
  if (!ENV_NAME.test(name)) return 'must be the name of an environment variable (letters, digits, _)';
  const denied = DENIED_KEY_VARIABLES.find((d) => d.pattern.test(name));
  return denied ? `${name} cannot hold an endpoint's key: ${denied.why}` : null;
}

export const keyVariableSchema = z
  .string()
  .trim()
  .max(100, { error: 'Use at most 100 characters.' })
  .superRefine((name, ctx) => {
    const refusal = keyVariableRefusal(name);
    if (refusal) ctx.addIssue({ code: 'custom', message: refusal });
  });

/**
 * Why `url` cannot be an endpoint's base URL, or null. `/chat/completions` is appended to its path, so a query or
 * a fragment (even an empty one) would cut that off and send the POST to any path of the host; credentials in the
 * URL would be stored and shown.
 */
export function endpointUrlRefusal(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'must be an http:// or https:// URL';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'must be an http:// or https:// URL';
  if (u.username || u.password) return 'must not hold a user name or password';
  if (url.includes('?')) return 'must not have a query (?…): /chat/completions is appended to its path';
  if (url.includes('#')) return 'must not have a fragment (#…): /chat/completions is appended to its path';
  return null;
}

export const endpointUrlSchema = z
  .string()
  .trim()
  .min(1, { error: 'Enter the base URL, e.g. https://api.openai.com/v1.' })
  .max(2000, { error: 'Use at most 2000 characters.' })
  .superRefine((url, ctx) => {
    const refusal = endpointUrlRefusal(url);
    if (refusal) ctx.addIssue({ code: 'custom', message: refusal });
  });

/** The chat-completions URL of a base URL: its path with `/chat/completions` appended, never a query or fragment. */
export function chatCompletionsUrl(base: string): string {
  const u = new URL(base);
  u.pathname = `${u.pathname.replace(/\/+$/, '')}/chat/completions`;
  u.search = '';
  u.hash = '';
  return u.toString();
}

export const ENDPOINT_NAME = /^[A-Za-z0-9][A-Za-z0-9._:/ -]{0,59}$/;

export const endpointNameSchema = z
  .string({ error: 'Choose an endpoint.' })
  .trim()
  .min(1, { error: 'Choose an endpoint.' })
  .regex(ENDPOINT_NAME, { error: 'Use letters, digits, . _ - : / and spaces, up to 60, starting with a letter or digit.' });

const MODEL = /^[^\s,][^\s,]{0,199}$/;

/** Models as a list, or as text with one per line or comma-separated (the admin form's textarea). */
const modelList = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(/[\n,]/) : v),
  z
    .array(z.string().trim(), { error: 'List the models leads may choose.' })
    .transform((models) => models.filter((m) => m.length > 0))
    .pipe(
      z
        .array(z.string().regex(MODEL, { error: 'A model name has no spaces or commas and at most 200 characters.' }))
        .min(1, { error: 'List at least one model leads may choose.' })
        .max(100, { error: 'List at most 100 models.' })
        .refine((m) => new Set(m).size === m.length, { error: 'A model is listed twice.' }),
    ),
);

/** A price per million tokens: empty for none, else a decimal number of dollars. */
const price = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  z.coerce
    .number({ error: 'Enter a price in dollars per million tokens, e.g. 2.5.' })
    .min(0, { error: 'A price is 0 or more.' })
    .max(1_000_000, { error: 'A price is at most 1000000.' })
    .optional(),
);

export const judgeEndpointSchema = z.object({
  name: endpointNameSchema,
  baseUrl: endpointUrlSchema,
  /** Empty for an endpoint that takes no key (a lab's own vLLM). */
  keyEnv: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), keyVariableSchema.optional()),
  models: modelList,
  priceIn: price,
  priceOut: price,
});
export type JudgeEndpointInput = z.input<typeof judgeEndpointSchema>;
export type JudgeEndpoint = z.output<typeof judgeEndpointSchema>;
