import path from 'node:path';
import * as z from 'zod';
import type { Label } from '@/lib/validation/labels';
import { zodIssuesToImportErrors } from '@/lib/validation/import-errors';
import { readJsonArray } from '../json-array';
import { failure, type RecordResult } from '../record-result';

/*
 * PandaLM (Wang et al., ICLR 2024; Apache-2.0) → Concord pairwise items, prior
 * annotations and judge outputs.
 *
 * `testset-v1.json`: 999 items (instruction, input, response1, response2), each
 * labelled by three people: 0 tie, 1 response1 better, 2 response2 better.
 * `<judge>-testset-v1.json`: a judge's verdict per item (`idx`, `<x>_result`,
 * `<x>_reason`). Verdicts map from response1's side, which is `a`:
 * 1 → win, 2 → lose, 0 or "Tie" → tie. Anything else is reported, never guessed.
 *
 * All results yielded here are candidates; records.ts validates them.
 */

const textish = z.union([z.string(), z.number(), z.boolean()]);

export const pandalmItemSchema = z.object({
  idx: z.int().min(0),
  instruction: z.string(),
  input: z.string().optional(),
  // A few responses in the published file are JSON `true` rather than text;
  // they are shown as the literal text "true".
  response1: textish,
  response2: textish,
  annotator1: z.unknown().optional(),
  annotator2: z.unknown().optional(),
  annotator3: z.unknown().optional(),
});
type PandalmItem = z.infer<typeof pandalmItemSchema>;

export const PANDALM_ANNOTATORS = ['annotator1', 'annotator2', 'annotator3'] as const;
export const PANDALM_SOURCES = { a: 'pandalm-response1', b: 'pandalm-response2' } as const;

export function pandalmItemId(idx: number): string {
  return `pandalm-${idx}`;
}

/** A PandaLM label or verdict as a Concord label, or null when it is none of 0, 1, 2 or "tie". */
export function pandalmLabel(value: unknown): Label | null {
  const v = typeof value === 'string' ? value.trim().toLowerCase() : value;
  if (v === 1 || v === '1') return 'win';
  if (v === 2 || v === '2') return 'lose';
  if (v === 0 || v === '0' || v === 'tie') return 'tie';
  return null;
}

function describe(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : (JSON.stringify(value) ?? String(value));
}

function* items(file: string): Generator<{ line: number; item: PandalmItem } | RecordResult<never>> {
  const loaded = readJsonArray(file);
  if (!loaded.ok) {
    yield failure(0, '', `${path.basename(file)}: ${loaded.message}`);
    return;
  }
  for (let i = 0; i < loaded.records.length; i++) {
    const parsed = pandalmItemSchema.safeParse(loaded.records[i], { reportInput: true });
    yield parsed.success
      ? { line: i + 1, item: parsed.data }
      : { line: i + 1, ok: false, errors: zodIssuesToImportErrors(i + 1, parsed.error) };
  }
}

/**
 * Pairwise items from `testset-v1.json`: id `pandalm-<idx>`, the instruction
 * and input as the problem, response1 as `a` and response2 as `b` under
 * neutral source names, no history, no principles.
 */
export function* pandalmPairwiseItems(file: string): Generator<RecordResult<unknown>> {
  for (const r of items(file)) {
    if ('ok' in r) {
      yield r;
      continue;
    }
    const { item, line } = r;
    const problem = [item.instruction.trim(), (item.input ?? '').trim()].filter(Boolean).join('\n\n');
    yield {
      line,
      ok: true,
      value: {
        id: pandalmItemId(item.idx),
        problem,
        history: [],
        a: { source: PANDALM_SOURCES.a, text: String(item.response1) },
        b: { source: PANDALM_SOURCES.b, text: String(item.response2) },
      },
    };
  }
}

/**
 * The three human labels of each item in `testset-v1.json` as annotation
 * lines (`pandalm-annotator1..3`, criterion `overall`): three results per item,
 * all with the item's record number.
 */
export function* pandalmAnnotations(file: string): Generator<RecordResult<unknown>> {
  for (const r of items(file)) {
    if ('ok' in r) {
      yield r;
      continue;
    }
    const { item, line } = r;
    for (const annotator of PANDALM_ANNOTATORS) {
      const label = pandalmLabel(item[annotator]);
      yield label === null
        ? failure(line, annotator, `unparseable label ${describe(item[annotator])} (expected 0, 1 or 2)`)
        : {
            line,
            ok: true,
            value: { item: pandalmItemId(item.idx), annotator: `pandalm-${annotator}`, labels: { overall: label } },
          };
    }
  }
}

/** `gpt-3.5-turbo-testset-v1.json` → `gpt-3.5-turbo`. */
export function pandalmJudgeName(file: string): string {
  return path
    .basename(file)
    .replace(/\.json$/i, '')
    .replace(/-testset-v\d+$/i, '');
}

const judgeRecordSchema = z.looseObject({ idx: z.int().min(0) });

/**
 * A PandaLM judge file as judge lines (criterion `overall`, not swapped, the
 * judge's reason as rationale). The verdict is the field ending in `_result`.
 */
export function* pandalmJudgeLines(file: string, judgeName = pandalmJudgeName(file)): Generator<RecordResult<unknown>> {
  const loaded = readJsonArray(file);
  if (!loaded.ok) {
    yield failure(0, '', `${path.basename(file)}: ${loaded.message}`);
    return;
  }
  for (let i = 0; i < loaded.records.length; i++) {
    const line = i + 1;
    const parsed = judgeRecordSchema.safeParse(loaded.records[i], { reportInput: true });
    if (!parsed.success) {
      yield { line, ok: false, errors: zodIssuesToImportErrors(line, parsed.error) };
      continue;
    }
    const record = parsed.data as Record<string, unknown> & { idx: number };
    const resultKey = Object.keys(record).find((k) => k.endsWith('_result'));
    if (resultKey === undefined) {
      yield failure(line, '', 'has no verdict (a field ending in _result)');
      continue;
    }
    const label = pandalmLabel(record[resultKey]);
    if (label === null) {
      const message = `unparseable verdict ${describe(record[resultKey])}`;
      yield { line, ok: false, errors: [{ line, path: resultKey, message }], unreadableVerdict: { item: pandalmItemId(record.idx) } };
      continue;
    }
    const reasonKey = resultKey.replace(/_result$/, '_reason');
    const reason = typeof record[reasonKey] === 'string' ? (record[reasonKey] as string) : '';
    yield {
      line,
      ok: true,
      value: {
        item: pandalmItemId(record.idx),
        judge: judgeName,
        labels: { overall: label },
        swapped: false,
        ...(reason.trim() ? { rationale: reason } : {}),
      },
    };
  }
}
