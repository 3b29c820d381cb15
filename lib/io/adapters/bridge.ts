import fs from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { zodIssuesToImportErrors } from '@/lib/validation/import-errors';
import { readJsonArray } from '../json-array';
import { failure, type RecordResult } from '../record-result';

/*
 * Bridge (Wang et al., NAACL 2024; MIT) → Concord pairwise items.
 *
 * `test.json` holds 210 tutoring snippets in which a student made a mistake:
 * the dialogue so far (`c_h`), the novice tutor's actual reply (`c_r`), the
 * expert's revision of it (`c_r_`) and the expert's annotations (error `e`,
 * strategy `z_what`, intention `z_why`). Each `responses/<framework>_<model>.json`
 * holds another writer's reply (`c_r_`) to 100 or 210 of those snippets; the
 * framework says what the model was told (`expert`: the expert's error and
 * strategy, `none`: nothing, `random`: random ones, the model's own name: the
 * model chose them itself).
 *
 * An item pairs two of these replies to the same snippet. `a` defaults to GPT-4
 * prompted with the expert's decisions and `b` to the expert's revision, the
 * comparison the Bridge paper leads with.
 */

export type BridgePairOptions = {
  /** `expert` (the expert's revision), `novice` (the original tutor reply) or a file name in responses/ without `.json`. */
  a?: string;
  b?: string;
};

export const BRIDGE_DEFAULT_PAIR = { a: 'expert_gpt4', b: 'expert' } as const;

const messageSchema = z.object({ user: z.string(), text: z.string() });
const idSchema = z.union([z.string(), z.number()]).transform((v) => String(v));

export const bridgeContextSchema = z.object({
  c_id: idSchema,
  lesson_topic: z.string(),
  c_h: z.array(messageSchema),
  c_r: z.array(messageSchema),
  c_r_: z.array(messageSchema),
  e: z.string().optional(),
  z_what: z.string().optional(),
  z_why: z.string().optional(),
});
type BridgeContext = z.infer<typeof bridgeContextSchema>;

const SIDE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** How a reply's writer is named in `source`, e.g. `gpt4 (expert prompt)`. */
export function bridgeSourceName(side: string): string {
  if (side === 'expert' || side === 'expert_expert') return 'human expert';
  if (side === 'novice') return 'novice tutor';
  const cut = side.indexOf('_');
  if (cut <= 0) return side;
  const framework = side.slice(0, cut);
  const model = side.slice(cut + 1);
  if (framework === model) return `${model} (own error and strategy)`;
  switch (framework) {
    case 'expert':
      return `${model} (expert prompt)`;
    case 'none':
      return `${model} (no error or strategy given)`;
    case 'random':
      return `${model} (random error and strategy)`;
    default:
      return `${model} (${framework} prompt)`;
  }
}

/** The response files available in a Bridge folder, by name without `.json`. */
export function bridgeResponseNames(dir: string): string[] {
  const folder = path.join(dir, 'responses');
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
}

function replyText(messages: { text: string }[]): string {
  return messages
    .map((m) => m.text.trim())
    .filter(Boolean)
    .join('\n');
}

// Identifies the snippet a response answers. c_id alone is not enough: test.json
// has the same snippet several times, annotated by different experts.
function snippetKey(c: BridgeContext): string {
  return JSON.stringify([c.c_id, c.c_h.map((m) => m.text), c.c_r.map((m) => m.text)]);
}

function conditionKey(c: BridgeContext): string {
  return JSON.stringify([c.e ?? '', c.z_what ?? '', c.z_why ?? '']);
}

type Replies = { replies: Map<number, string>; problems: RecordResult<never>[] };

/**
 * The replies of one response file, keyed by snippet index in test.json.
 * Files list snippets either in test.json's order or in their own; a record is
 * placed at its own position when that snippet matches, otherwise at the first
 * free copy of its snippet, preferring a copy with the same annotations.
 */
function fileReplies(dir: string, name: string, contexts: (BridgeContext | null)[]): Replies {
  const file = path.join(dir, 'responses', `${name}.json`);
  const label = `responses/${name}.json`;
  const loaded = readJsonArray(file);
  if (!loaded.ok) return { replies: new Map(), problems: [failure(0, '', `${label}: ${loaded.message}`)] };
  const problems: RecordResult<never>[] = [];
  const byKey = new Map<string, number[]>();
  contexts.forEach((c, i) => {
    if (!c) return;
    const list = byKey.get(snippetKey(c)) ?? [];
    list.push(i);
    byKey.set(snippetKey(c), list);
  });

  const records: (BridgeContext | null)[] = loaded.records.map((raw, j) => {
    const parsed = bridgeContextSchema.safeParse(raw);
    if (parsed.success) return parsed.data;
    for (const e of zodIssuesToImportErrors(j + 1, parsed.error)) {
      problems.push(failure(0, '', `${label} record ${j + 1}${e.path ? `, ${e.path}` : ''}: ${e.message}`));
    }
    return null;
  });

  const replies = new Map<number, string>();
  const placed = new Set<number>();
  records.forEach((r, j) => {
    const own = contexts[j];
    if (r && own && snippetKey(own) === snippetKey(r) && !replies.has(j)) {
      replies.set(j, replyText(r.c_r_));
      placed.add(j);
    }
  });
  records.forEach((r, j) => {
    if (!r || placed.has(j)) return;
    const free = (byKey.get(snippetKey(r)) ?? []).filter((i) => !replies.has(i));
    const target = free.find((i) => conditionKey(contexts[i]!) === conditionKey(r)) ?? free[0];
    if (target === undefined) {
      problems.push(failure(0, '', `${label} record ${j + 1} (c_id ${r.c_id}) does not match any unused snippet of test.json`));
      return;
    }
    replies.set(target, replyText(r.c_r_));
  });
  return { replies, problems };
}

function humanise(value: string): string {
  // Bridge's taxonomy values are snake_case tokens; free-text annotations are kept as written.
  return /^[a-z]+(?:[_-][a-z]+)*$/.test(value) ? value.replace(/_/g, ' ') : value;
}

/**
 * The snippet's annotations (error type, strategy, intention) as the item's
 * instructions, worded without saying who made them so that the text points
 * reviewers at neither reply.
 */
function instructionsFor(c: BridgeContext): string | undefined {
  const parts: string[] = [];
  const e = c.e?.trim();
  const what = c.z_what?.trim();
  const why = c.z_why?.trim();
  if (e) parts.push(`Student's error: ${humanise(e)}.`);
  if (what) parts.push(`Suggested strategy: ${humanise(what)}.`);
  if (why) parts.push(`Intention: ${humanise(why)}.`);
  return parts.length > 0 ? parts.join(' ') : undefined;
}

function checkSide(dir: string, side: string, available: string[]) {
  if (side === 'expert' || side === 'novice') return;
  if (!SIDE_NAME.test(side) || !available.includes(side)) {
    throw new Error(
      `Unknown Bridge reply source "${side}": use expert, novice or one of ${available.join(', ')} (files in ${path.join(dir, 'responses')}).`,
    );
  }
}

/**
 * Pairwise item candidates (not yet validated) from a Bridge folder: one per
 * snippet of test.json that both sides answer, `line` being the snippet's
 * 1-based position in test.json. Id: `bridge-<line>-<a>-vs-<b>`. History turns
 * with empty text (images in the original chats) are left out. Throws for an
 * unknown side or a missing test.json.
 */
export function* bridgeItems(dir: string, options: BridgePairOptions = {}): Generator<RecordResult<unknown>> {
  const a = options.a ?? BRIDGE_DEFAULT_PAIR.a;
  const b = options.b ?? BRIDGE_DEFAULT_PAIR.b;
  const available = bridgeResponseNames(dir);
  checkSide(dir, a, available);
  checkSide(dir, b, available);
  if (a === b) throw new Error(`Both replies of a Bridge item would come from "${a}"; choose two different sources.`);

  const loaded = readJsonArray(path.join(dir, 'test.json'));
  if (!loaded.ok) {
    yield failure(0, '', `test.json: ${loaded.message}`);
    return;
  }
  const contextProblems = new Map<number, RecordResult<never>>();
  const contexts = loaded.records.map((raw, i) => {
    const parsed = bridgeContextSchema.safeParse(raw, { reportInput: true });
    if (parsed.success) return parsed.data;
    contextProblems.set(i, { line: i + 1, ok: false, errors: zodIssuesToImportErrors(i + 1, parsed.error) });
    return null;
  });

  const sideReplies = (side: string): Replies => {
    if (side === 'expert' || side === 'novice') {
      const replies = new Map<number, string>();
      contexts.forEach((c, i) => c && replies.set(i, replyText(side === 'expert' ? c.c_r_ : c.c_r)));
      return { replies, problems: [] };
    }
    return fileReplies(dir, side, contexts);
  };
  const left = sideReplies(a);
  const right = sideReplies(b);
  yield* left.problems;
  yield* right.problems;

  for (let i = 0; i < contexts.length; i++) {
    const problem = contextProblems.get(i);
    if (problem) {
      yield problem;
      continue;
    }
    const c = contexts[i]!;
    const aText = left.replies.get(i);
    const bText = right.replies.get(i);
    if (aText === undefined || bText === undefined) continue;
    const line = i + 1;
    const unknownRole = c.c_h.findIndex((m) => m.user !== 'tutor' && m.user !== 'student');
    if (unknownRole !== -1) {
      yield failure(line, `c_h[${unknownRole}].user`, `must be tutor or student (got "${c.c_h[unknownRole].user}")`);
      continue;
    }
    if (!c.lesson_topic.trim()) {
      yield failure(line, 'lesson_topic', 'must be a non-empty string: it is shown as the problem');
      continue;
    }
    const instructions = instructionsFor(c);
    yield {
      line,
      ok: true,
      value: {
        id: `bridge-${line}-${a}-vs-${b}`,
        problem: `Lesson topic: ${c.lesson_topic.trim()}`,
        ...(instructions ? { instructions } : {}),
        history: c.c_h.filter((m) => m.text.trim() !== '').map((m) => ({ role: m.user as 'tutor' | 'student', text: m.text })),
        a: { source: bridgeSourceName(a), text: aText },
        b: { source: bridgeSourceName(b), text: bText },
      },
    };
  }
}
