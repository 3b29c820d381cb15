import path from 'node:path';
import * as z from 'zod';
import { failure, type RecordResult } from '../record-result';
import { mrbenchDimensionId, mrbenchItemId, mrbenchItems, mrbenchRecords, mrbenchReplies } from './mrbench';

/*
 * AITutor-EvalKit (kaushal0494/AITutor-EvalKit; CC BY-SA 4.0, an MRBench
 * derivative) → Concord rubric items and judge lines.
 *
 * Its files are MRBench-shaped (`anno_llm_responses`). `test_sample.json`
 * holds the dialogues and replies; each `*_model_predictions.json` repeats
 * them and adds judges' labels per reply:
 * - `auto_annotation: {Mistake_Identification: "Yes", …}`: the kit's
 *   fine-tuned classifier, imported as the judge `aitutor-evalkit-auto`;
 * - `llm_annotation: {"Mistake_Identification/gpt5": "No", …}`: LLM judges,
 *   the judge being what follows the first `/` (`gpt5`,
 *   `prometheus-eval/prometheus-7b-v2.0`).
 *
 * Item ids are those of the MRBench adapter (`<conversation_id>-<tutor>`).
 * The sample's dialogues are not in the MRBench V3 dev set nor in MRBench V1
 * (different conversation ids, dialogue texts and tutor names such as
 * `Llama-3.1-8B` for V3's `Llama318B`), so its judge lines belong to a study
 * whose items were imported from `test_sample.json` (or a predictions file).
 *
 * A label is read when it is exactly, after trimming, one of the dimension's
 * labels; anything else is unreadable: listed with the raw value, never
 * guessed. The reply's readable labels are still imported.
 */

export const EVALKIT_AUTO_JUDGE = 'aitutor-evalkit-auto';

/** Items from `test_sample.json` or a predictions file, with the MRBench adapter's ids. */
export function evalkitItems(file: string): Generator<RecordResult<unknown>> {
  return mrbenchItems(file);
}

const predictionsSchema = z.looseObject({
  auto_annotation: z.record(z.string(), z.unknown()).optional(),
  llm_annotation: z.record(z.string(), z.unknown()).optional(),
});

/** One judge's raw labels of a reply, by source field name. */
function judgeFields(reply: unknown, judge: string): Record<string, unknown> | null {
  const parsed = predictionsSchema.safeParse(reply);
  if (!parsed.success) return null;
  if (judge === EVALKIT_AUTO_JUDGE) return parsed.data.auto_annotation ?? null;
  const out: Record<string, unknown> = {};
  let found = false;
  for (const [key, value] of Object.entries(parsed.data.llm_annotation ?? {})) {
    const cut = key.indexOf('/');
    if (cut > 0 && key.slice(cut + 1) === judge) {
      out[key.slice(0, cut)] = value;
      found = true;
    }
  }
  return found ? out : null;
}

/** The judges whose labels a file holds, in order of first appearance. */
export function evalkitJudgeNames(file: string): string[] {
  const names: string[] = [];
  const add = (n: string) => names.includes(n) || names.push(n);
  for (const r of mrbenchRecords(file)) {
    if ('ok' in r) continue;
    for (const [, reply] of mrbenchReplies(r.record).replies) {
      const parsed = predictionsSchema.safeParse(reply);
      if (!parsed.success) continue;
      if (parsed.data.auto_annotation !== undefined) add(EVALKIT_AUTO_JUDGE);
      for (const key of Object.keys(parsed.data.llm_annotation ?? {})) {
        const cut = key.indexOf('/');
        if (cut > 0) add(key.slice(cut + 1));
      }
    }
  }
  return names;
}

/**
 * The judge a predictions file is named after: `auto_model_predictions.json`
 * → the classifier, `gpt5_model_predictions.json` → `gpt5`,
 * `prometheus_model_predictions.json` → the judge whose name contains
 * `prometheus`. Throws, listing the judges in the file, when that is not
 * exactly one.
 */
export function evalkitDefaultJudge(file: string): string {
  const stem = path
    .basename(file)
    .replace(/\.json$/i, '')
    .replace(/_model_predictions$/i, '')
    .toLowerCase();
  const available = evalkitJudgeNames(file);
  if (stem === 'auto' && available.includes(EVALKIT_AUTO_JUDGE)) return EVALKIT_AUTO_JUDGE;
  const matching = available.filter((n) => n !== EVALKIT_AUTO_JUDGE && n.toLowerCase().includes(stem));
  if (matching.length === 1) return matching[0];
  throw new Error(
    `Cannot tell which judge ${path.basename(file)} is for; name one of: ${available.length ? available.join(', ') : '(the file holds no predictions)'}.`,
  );
}

/** What the adapter needs to know of the study's dimensions: their ids and labels. */
export type DimensionLabels = readonly { id: string; labels: readonly string[] }[];

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
}

/**
 * One judge's labels as judge lines (sample 1). Per reply: the readable labels
 * as one line; each unreadable label as a failure marked `unreadableVerdict`
 * (with its item and dimension); a reply the judge did not label as a failure
 * marked `unreadableVerdict` saying so. A field that names no dimension of
 * `dimensions` is an ordinary error: the file does not fit the study.
 */
export function* evalkitJudgeLines(
  file: string,
  dimensions: DimensionLabels,
  judge: string = evalkitDefaultJudge(file),
): Generator<RecordResult<unknown>> {
  const byId = new Map(dimensions.map((d) => [d.id, d] as const));
  const judgeField = judge === EVALKIT_AUTO_JUDGE ? 'auto_annotation' : 'llm_annotation';
  for (const r of mrbenchRecords(file)) {
    if ('ok' in r) {
      yield r;
      continue;
    }
    const { line, key, record } = r;
    const { field, replies } = mrbenchReplies(record);
    for (const [tutor, reply] of replies) {
      const item = mrbenchItemId(key, tutor);
      const where = `${field}.${tutor}.${judgeField}`;
      const fields = judgeFields(reply, judge);
      if (fields === null) {
        yield { line, ok: false, errors: [{ line, path: where, message: `has no verdict from ${judge}` }], unreadableVerdict: { item } };
        continue;
      }
      const labels: Record<string, string> = {};
      const problems: RecordResult<never>[] = [];
      for (const [name, value] of Object.entries(fields)) {
        const id = mrbenchDimensionId(name);
        const fieldPath = `${where}${judge === EVALKIT_AUTO_JUDGE ? `.${name}` : `["${name}/${judge}"]`}`;
        const dimension = byId.get(id);
        if (dimension === undefined) {
          problems.push(failure(line, fieldPath, `${name} is not a dimension of this study (${dimensions.map((d) => d.id).join(', ')})`));
          continue;
        }
        const label = typeof value === 'string' ? value.trim() : null;
        if (label === null || !dimension.labels.includes(label)) {
          const message = `unreadable verdict ${describe(value)} (expected one of ${dimension.labels.join(', ')})`;
          problems.push({ line, ok: false, errors: [{ line, path: fieldPath, message }], unreadableVerdict: { item, criterion: id } });
          continue;
        }
        labels[id] = label;
      }
      yield* problems;
      if (Object.keys(labels).length > 0) yield { line, ok: true, value: { item, judge, labels, sample: 1 } };
    }
  }
}
