import * as z from 'zod';
import { compileAnswerPattern, matchAnswerPattern } from './answer-pattern';
import { OVERALL, criterionIdSchema, nonEmptyText } from './common';
import { endpointUrlSchema, keyVariableSchema } from './judge-endpoints';

/*
 * Prompt templates for judges run from Concord (DESIGN "Running judges from Concord"): the template JSON, the
 * renderer that fills its placeholders, and the reader that takes a verdict out of a judge's reply. Pure code: the
 * browser's preview and the runner use the same functions.
 */

/** Every placeholder a template may use. */
export const PLACEHOLDERS = [
  'problem',
  'instructions',
  'history',
  'reply',
  'response_1',
  'response_2',
  'criterion.id',
  'criterion.name',
  'criterion.description',
  'criterion.aspects',
  'labels',
] as const;

const PLACEHOLDER = /\{\{\s*([a-z0-9_.]+)\s*\}\}/gi;

/** What a pairwise judge answers before Concord maps it to win/lose from the order it sent. */
export const PAIRWISE_ANSWERS = ['first', 'second', 'tie'] as const;
export type PairwiseAnswer = (typeof PAIRWISE_ANSWERS)[number];

const mapSchema = z.record(z.string(), z.string()).optional();

const answerSchema = z.union([
  z.object({ json: nonEmptyText, map: mapSchema }).strict(),
  z
    .object({ pattern: nonEmptyText, map: mapSchema })
    .strict()
    .superRefine((a, ctx) => {
      // Compiled by the engine that reads answers, so what is saved is exactly what runs (answer-pattern.ts).
      const c = compileAnswerPattern(a.pattern);
      if (!c.ok) ctx.addIssue({ code: 'custom', path: ['pattern'], message: c.reason });
    }),
]);

/** The most worked examples one template carries (each is a whole item in every prompt). */
export const MAX_WORKED_EXAMPLES = 20;

const workedExampleSchema = z
  .object({
    /** The item's id in the study (its external id). */
    item: nonEmptyText.pipe(z.string().max(500)),
    /** The criterion (or dimension) the answer gives, or '*' for a template judging its criteria together. */
    criterion: nonEmptyText.pipe(z.string().max(200)),
    prompt: nonEmptyText.pipe(z.string().max(100_000)),
    answer: nonEmptyText.pipe(z.string().max(10_000)),
  })
  .strict();
export type WorkedExample = z.output<typeof workedExampleSchema>;

function placeholderIssues(text: string, path: string, ctx: z.RefinementCtx) {
  for (const m of text.matchAll(PLACEHOLDER)) {
    if (!(PLACEHOLDERS as readonly string[]).includes(m[1])) {
      ctx.addIssue({ code: 'custom', path: [path], message: `unknown placeholder {{${m[1]}}} (known: ${PLACEHOLDERS.join(', ')})` });
    }
  }
}

export const judgeTemplateSchema = z
  .object({
    name: z
      .string()
      .min(1)
      .max(100)
      .refine((s) => s.trim() === s, { error: 'must not start or end with whitespace' }),
    /** The criteria (pairwise) or dimensions (rubric) judged; absent = all of the study's. */
    criteria: z
      .array(z.union([criterionIdSchema, z.literal(OVERALL)]))
      .min(1)
      .optional(),
    together: z.boolean().default(false),
    system: z.string().max(50_000).optional(),
    user: nonEmptyText.pipe(z.string().max(100_000)),
    answer: answerSchema,
    /**
     * Worked examples sent before the item, each as the user turn the template gave on an item and the answer the
     * study settled on (a version made from a run's disagreements, lib/server/judges/examples.ts). Sent verbatim:
     * their text is never read for placeholders. The items they name are left out of this version's evaluation.
     */
    examples: z.array(workedExampleSchema).min(1).max(MAX_WORKED_EXAMPLES).optional(),
  })
  .strict()
  .superRefine((t, ctx) => {
    placeholderIssues(t.user, 'user', ctx);
    if (t.system) placeholderIssues(t.system, 'system', ctx);
    if (t.together && 'pattern' in t.answer) {
      ctx.addIssue({
        code: 'custom',
        path: ['answer'],
        message: 'a template judging its criteria together must read a JSON answer ({"json": …})',
      });
    }
    if (t.criteria) {
      const seen = new Set<string>();
      t.criteria.forEach((c, i) => {
        if (seen.has(c)) ctx.addIssue({ code: 'custom', path: ['criteria', i], message: `repeats '${c}'` });
        seen.add(c);
      });
    }
  });
export type JudgeTemplate = z.output<typeof judgeTemplateSchema>;
export type JudgeTemplateInput = z.input<typeof judgeTemplateSchema>;

/* ----- rendering ----- */

export type RenderCriterion = { id: string; name: string; description: string; aspects: readonly string[] };

export type RenderContext = {
  problem: string;
  instructions?: string | null;
  history: readonly { role: string; text: string }[];
  /** Pairwise: the two replies in the order sent. */
  responses?: readonly [string, string];
  /** Rubric: the reply judged. */
  reply?: string;
  criterion?: RenderCriterion;
  labels?: readonly string[];
};

const speaker = (role: string) => (role === 'tutor' ? 'Tutor' : role === 'student' ? 'Student' : role);

/** Fills the placeholders of one text in a single pass, so text from an item is never read as a placeholder. */
export function renderText(text: string, ctx: RenderContext): string {
  return text.replace(PLACEHOLDER, (whole, key: string) => {
    switch (key) {
      case 'problem':
        return ctx.problem;
      case 'instructions':
        return ctx.instructions ?? '';
      case 'history':
        return ctx.history.map((t) => `${speaker(t.role)}: ${t.text}`).join('\n');
      case 'reply':
        return ctx.reply ?? '';
      case 'response_1':
        return ctx.responses?.[0] ?? '';
      case 'response_2':
        return ctx.responses?.[1] ?? '';
      case 'criterion.id':
        return ctx.criterion?.id ?? '';
      case 'criterion.name':
        return ctx.criterion?.name ?? '';
      case 'criterion.description':
        return ctx.criterion?.description ?? '';
      case 'criterion.aspects':
        return (ctx.criterion?.aspects ?? []).map((a) => `- ${a}`).join('\n');
      case 'labels':
        return (ctx.labels ?? []).join(', ');
      default:
        return whole;
    }
  });
}

export type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string };

/** The prompt of one request: the system text, each worked example as a user turn and its answer, then the item. */
export function renderPrompt(t: Pick<JudgeTemplate, 'system' | 'user' | 'examples'>, ctx: RenderContext): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (t.system) messages.push({ role: 'system', content: renderText(t.system, ctx) });
  for (const e of t.examples ?? []) messages.push({ role: 'user', content: e.prompt }, { role: 'assistant', content: e.answer });
  messages.push({ role: 'user', content: renderText(t.user, ctx) });
  return messages;
}

/* ----- reading answers ----- */

/** Every JSON object in `text` that parses, outermost first, in order of their opening brace. */
export function jsonObjectsIn(text: string): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  let from = 0;
  while (from < text.length) {
    const start = text.indexOf('{', from);
    if (start < 0) break;
    const end = matchingBrace(text, start);
    if (end < 0) {
      from = start + 1;
      continue;
    }
    try {
      const value = JSON.parse(text.slice(start, end + 1));
      if (value && typeof value === 'object' && !Array.isArray(value)) {
        found.push(value as Record<string, unknown>);
        from = end + 1;
        continue;
      }
    } catch {
      // not JSON: look for the next brace inside it
    }
    from = start + 1;
  }
  return found;
}

function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}

const norm = (s: string) => s.trim().toLowerCase();

/** The value the judge wrote, mapped and matched against `allowed` (case-insensitive, trimmed); null if none. */
export function matchAllowed(value: unknown, map: Record<string, string> | undefined, allowed: readonly string[]): string | null {
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return null;
  let v = norm(String(value));
  if (map) {
    const hit = Object.entries(map).find(([k]) => norm(k) === v);
    if (hit) v = norm(hit[1]);
  }
  return allowed.find((a) => norm(a) === v) ?? null;
}

/**
 * Reads the verdict for each of `criteria` from a judge's reply. With one criterion, the answer's key or pattern
 * gives it; with several (`together`), the JSON object found (or its value under the answer key, when that is an
 * object) is keyed by criterion id. A criterion whose value is missing or not among `allowed` is absent from the
 * result: it is unreadable, never guessed.
 */
export function readVerdicts(
  answer: JudgeTemplate['answer'],
  raw: string,
  criteria: readonly string[],
  allowed: (criterion: string) => readonly string[],
  together: boolean,
): Record<string, string> {
  const out: Record<string, string> = {};
  if ('pattern' in answer) {
    const value = matchAnswerPattern(answer.pattern, raw);
    const got = value === null ? null : matchAllowed(value, answer.map, allowed(criteria[0]));
    if (got !== null) out[criteria[0]] = got;
    return out;
  }
  const objects = jsonObjectsIn(raw);
  if (!together) {
    const obj = objects.find((o) => Object.hasOwn(o, answer.json));
    const got = obj ? matchAllowed(obj[answer.json], answer.map, allowed(criteria[0])) : null;
    if (got !== null) out[criteria[0]] = got;
    return out;
  }
  const obj = objects.find((o) => criteria.some((c) => Object.hasOwn(o, c)) || (o[answer.json] && typeof o[answer.json] === 'object'));
  if (!obj) return out;
  const inner = obj[answer.json];
  const byCriterion = inner && typeof inner === 'object' && !Array.isArray(inner) ? (inner as Record<string, unknown>) : obj;
  for (const c of criteria) {
    if (!Object.hasOwn(byCriterion, c)) continue;
    const got = matchAllowed(byCriterion[c], answer.map, allowed(c));
    if (got !== null) out[c] = got;
  }
  return out;
}

/** A pairwise answer turned into the label from reply a's side, given whether b was sent first. */
export function canonicalPairwise(answer: PairwiseAnswer, swapped: boolean): 'win' | 'lose' | 'tie' {
  if (answer === 'tie') return 'tie';
  const firstWins = answer === 'first';
  return firstWins !== swapped ? 'win' : 'lose';
}

/* ----- launching a run ----- */

// The command line's direct endpoint and key variable obey the rules of an admin-configured endpoint.
const envName = keyVariableSchema;
export const httpUrlSchema = endpointUrlSchema;

const num = (min: number, max: number) => z.coerce.number().min(min).max(max);
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

export const RUN_NAME_MAX = 100;

export const judgeLaunchSchema = z.object({
  name: z
    .string()
    .min(1)
    .max(RUN_NAME_MAX)
    .refine((s) => s.trim() === s && !/[\u0000-\u001f\u007f]/.test(s), { error: 'must not have surrounding spaces or control characters' }),
  endpoint: httpUrlSchema,
  model: z.string().min(1).max(200),
  apiKeyEnv: envName.optional(),
  samples: int(1, 100).default(1),
  temperature: num(0, 2).optional(),
  maxTokens: int(1, 100_000).optional(),
  seed: int(0, 2 ** 31 - 1).optional(),
  concurrency: int(1, 256).default(4),
  bothOrders: z.boolean().default(true),
  limit: int(1, 10_000_000).optional(),
  timeoutMs: int(100, 600_000).default(60_000),
  maxAttempts: int(1, 20).default(5),
  circuitAfter: int(1, 10_000).default(10),
  priceIn: num(0, 1_000_000).optional(),
  priceOut: num(0, 1_000_000).optional(),
});
export type JudgeLaunchInput = z.input<typeof judgeLaunchSchema>;
export type JudgeLaunch = z.output<typeof judgeLaunchSchema>;
