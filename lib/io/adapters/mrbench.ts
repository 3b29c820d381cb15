import path from 'node:path';
import * as z from 'zod';
import { zodIssuesToImportErrors } from '@/lib/validation/import-errors';
import { readJsonArray } from '../json-array';
import { failure, type RecordResult } from '../record-result';

/*
 * MRBench (Maurya et al., NAACL 2025; Kochmar et al., BEA 2025; CC BY-SA 4.0)
 * → Concord rubric items and prior annotations.
 *
 * A record is one dialogue that ends in a student mistake, continued by up to
 * nine tutors: `{conversation_id, conversation_history, tutor_responses |
 * anno_llm_responses: {<tutor>: {response, annotation: {<Dimension>: label}}}}`.
 * The V3 dev set names the replies `tutor_responses`, V1 and AITutor-EvalKit
 * `anno_llm_responses`; both are read.
 *
 * Each dialogue becomes a group, each reply an item with id
 * `<conversation_id>-<tutor>` (a repeated conversation id numbered, see
 * mrbenchRecords; characters other than letters, digits, `.`, `_`
 * and `-` replaced by `_`), and the reply's labels a prior annotation by
 * `mrbench-gold`. A dimension field maps to its Concord id by lowercasing
 * (`Mistake_Identification` → `mistake_identification`; V1 already writes
 * `humanlikeness` in lowercase). Label values are passed on as written: the
 * import checks them against the study's catalog, whose labels are spelt as in
 * these files, so a value MRBench never used is reported, not mapped.
 *
 * The problem statement is part of the first tutor turn ("… The question is:
 * …"), so items carry no separate `problem`.
 *
 * All results yielded here are candidates; the rubric readers (lib/kinds/rubric/records.ts) validate them.
 */

export const MRBENCH_GOLD_ANNOTATOR = 'mrbench-gold';

const replySchema = z.looseObject({
  response: z.string(),
  annotation: z.record(z.string(), z.unknown()).optional(),
});
export type MrbenchReply = z.infer<typeof replySchema>;

const repliesSchema = z.record(z.string(), replySchema);

export const mrbenchRecordSchema = z
  .looseObject({
    conversation_id: z.union([z.string(), z.number()]).transform((v) => String(v)),
    conversation_history: z.string(),
    tutor_responses: repliesSchema.optional(),
    anno_llm_responses: repliesSchema.optional(),
  })
  .superRefine((r, ctx) => {
    if (r.tutor_responses === undefined && r.anno_llm_responses === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['tutor_responses'],
        message: 'is required (or anno_llm_responses): the record has no replies',
      });
    }
  });
export type MrbenchRecord = z.infer<typeof mrbenchRecordSchema>;

/** The replies of a record by tutor, in file order, and the field they came from. */
export function mrbenchReplies(r: MrbenchRecord): { field: string; replies: [string, MrbenchReply][] } {
  return r.tutor_responses !== undefined
    ? { field: 'tutor_responses', replies: Object.entries(r.tutor_responses) }
    : { field: 'anno_llm_responses', replies: Object.entries(r.anno_llm_responses ?? {}) };
}

const UNSAFE_ID_CHARS = /[^A-Za-z0-9._-]+/g;

/** An id made of letters, digits, `.`, `_` and `-` only, so it is safe in URLs, CSV cells and file names. */
export function mrbenchSafeId(value: string): string {
  return value.trim().replace(UNSAFE_ID_CHARS, '_');
}

export function mrbenchItemId(conversationId: string, tutor: string): string {
  return `${mrbenchSafeId(conversationId)}-${mrbenchSafeId(tutor)}`;
}

/** `Mistake_Identification` → `mistake_identification`. */
export function mrbenchDimensionId(field: string): string {
  return field.trim().toLowerCase();
}

export class MrbenchFormatError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

// A turn starts on a line whose first word is a speaker tag. The files indent
// lines with spaces or no-break spaces, write `Student :` once and misspell
// `Tutor` as `Turor` once (V3 dev set); those are still speaker tags.
const SPEAKER_TAG = /^\s*(Tutor|Turor|Student)\s*:/;

/**
 * The dialogue text as turns. A line without a speaker tag continues the turn
 * above it (students' worked solutions span several lines). Each line is
 * trimmed, since the files pad their separators with (no-break) spaces; blank
 * lines inside a turn are kept. Turns left empty (a trailing `Tutor:` with
 * nothing after it) are dropped. Text before the first tag is an error.
 */
export function mrbenchHistory(text: string): { role: 'tutor' | 'student'; text: string }[] {
  const turns: { role: 'tutor' | 'student'; lines: string[] }[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const tag = SPEAKER_TAG.exec(raw);
    if (tag) {
      turns.push({ role: tag[1] === 'Student' ? 'student' : 'tutor', lines: [raw.slice(tag[0].length).trim()] });
    } else if (turns.length === 0) {
      if (raw.trim() === '') continue;
      throw new MrbenchFormatError('conversation_history', 'must start with "Tutor:" or "Student:"');
    } else {
      turns[turns.length - 1].lines.push(raw.trim());
    }
  }
  return turns.map((t) => ({ role: t.role, text: t.lines.join('\n').trim() })).filter((t) => t.text !== '');
}

function rawConversationId(value: unknown): string | null {
  if (value === null || typeof value !== 'object') return null;
  const id = (value as { conversation_id?: unknown }).conversation_id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : null;
}

/**
 * The records of an MRBench-shaped file, each parsed or reported, with its
 * 1-based record number and its conversation key: the conversation id, or
 * `<id>_<n>` for the n-th of several records sharing an id. MRBench V1 has
 * four ids twice each (the same Bridge snippet from its train and test
 * splits); the V3 dev set names those dialogues exactly this way
 * (`413876945_1`, `413876945_2`), so the keys of the two files agree.
 */
export function* mrbenchRecords(file: string): Generator<{ line: number; key: string; record: MrbenchRecord } | RecordResult<never>> {
  const loaded = readJsonArray(file);
  if (!loaded.ok) {
    yield failure(0, '', `${path.basename(file)}: ${loaded.message}`);
    return;
  }
  const total = new Map<string, number>();
  for (const raw of loaded.records) {
    const id = rawConversationId(raw);
    if (id !== null) total.set(id, (total.get(id) ?? 0) + 1);
  }
  const seen = new Map<string, number>();
  for (let i = 0; i < loaded.records.length; i++) {
    const parsed = mrbenchRecordSchema.safeParse(loaded.records[i], { reportInput: true });
    if (!parsed.success) {
      yield { line: i + 1, ok: false, errors: zodIssuesToImportErrors(i + 1, parsed.error) };
      continue;
    }
    const id = parsed.data.conversation_id;
    const occurrence = (seen.get(id) ?? 0) + 1;
    seen.set(id, occurrence);
    yield { line: i + 1, key: (total.get(id) ?? 1) > 1 ? `${id}_${occurrence}` : id, record: parsed.data };
  }
}

/**
 * Rubric items: one per reply, grouped by dialogue, the tutor's name as the
 * hidden `source` and the reply trimmed. Every reply of a record shares the
 * record's number.
 */
export function* mrbenchItems(file: string): Generator<RecordResult<unknown>> {
  for (const r of mrbenchRecords(file)) {
    if ('ok' in r) {
      yield r;
      continue;
    }
    const { line, key, record } = r;
    let history: ReturnType<typeof mrbenchHistory>;
    try {
      history = mrbenchHistory(record.conversation_history);
    } catch (e) {
      if (!(e instanceof MrbenchFormatError)) throw e;
      yield failure(line, e.path, e.message);
      continue;
    }
    const group = mrbenchSafeId(key);
    for (const [tutor, reply] of mrbenchReplies(record).replies) {
      yield {
        line,
        ok: true,
        value: {
          id: mrbenchItemId(key, tutor),
          group,
          history,
          reply: { source: tutor, text: reply.response.trim() },
        },
      };
    }
  }
}

/**
 * `{Dimension: label}` as Concord labels keyed by dimension id; two fields that
 * map to the same id are an error (never one silently kept).
 */
export function mrbenchLabels(annotation: Record<string, unknown>): { labels: Record<string, unknown>; clash: string | null } {
  const labels: Record<string, unknown> = {};
  const fieldOf = new Map<string, string>();
  for (const [field, value] of Object.entries(annotation)) {
    const id = mrbenchDimensionId(field);
    const earlier = fieldOf.get(id);
    if (earlier !== undefined) return { labels, clash: `${earlier} and ${field} both name the dimension ${id}` };
    fieldOf.set(id, field);
    labels[id] = value;
  }
  return { labels, clash: null };
}

/** The published labels of every reply as annotation lines by `mrbench-gold`. */
export function* mrbenchGoldAnnotations(file: string): Generator<RecordResult<unknown>> {
  for (const r of mrbenchRecords(file)) {
    if ('ok' in r) {
      yield r;
      continue;
    }
    const { line, key, record } = r;
    const { field, replies } = mrbenchReplies(record);
    for (const [tutor, reply] of replies) {
      const where = `${field}.${tutor}.annotation`;
      if (reply.annotation === undefined) {
        yield failure(line, where, 'is required: this reply has no labels');
        continue;
      }
      const { labels, clash } = mrbenchLabels(reply.annotation);
      if (clash !== null) {
        yield failure(line, where, clash);
        continue;
      }
      yield { line, ok: true, value: { item: mrbenchItemId(key, tutor), annotator: MRBENCH_GOLD_ANNOTATOR, labels } };
    }
  }
}

/**
 * An earlier MRBench release's labels as the lines of a judge run on a study made from a later one: each reply whose
 * item is in the study with the same text (`replyText` gives the study's text, or undefined) yields
 * `{item, judge, labels}`, keeping the dimensions in `dimensions`. MRBench V1 labelled 1,464 replies of the V3 dev
 * set with the same text, in a separate annotation round; as a run they stand in for a cheap judge that can be
 * certified against V3's gold labels. Replies whose text changed between the releases are left out (counted in
 * `changed`), as are those the study does not have (`missing`).
 */
export function mrbenchRunLines(
  file: string,
  judge: string,
  dimensions: ReadonlySet<string>,
  replyText: (item: string) => string | undefined,
): { lines: { item: string; judge: string; labels: Record<string, unknown> }[]; changed: number; missing: number } {
  const lines: { item: string; judge: string; labels: Record<string, unknown> }[] = [];
  let changed = 0;
  let missing = 0;
  for (const r of mrbenchRecords(file)) {
    if ('ok' in r) {
      if (r.ok) continue;
      const where = r.errors.map((e) => (e.line ? `record ${e.line}: ` : '') + `${e.path} ${e.message}`.trim()).join('; ');
      throw new Error(`${path.basename(file)}: ${where}`);
    }
    for (const [tutor, reply] of mrbenchReplies(r.record).replies) {
      const item = mrbenchItemId(r.key, tutor);
      const text = replyText(item);
      if (text === undefined) missing++;
      else if (text !== reply.response.trim()) changed++;
      else {
        const { labels } = mrbenchLabels(reply.annotation ?? {});
        lines.push({ item, judge, labels: Object.fromEntries(Object.entries(labels).filter(([d]) => dimensions.has(d))) });
      }
    }
  }
  return { lines, changed, missing };
}
