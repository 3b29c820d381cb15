/*
 * The readers of a pairwise study's import formats, one per format id of `import-formats.ts` (the compiler holds
 * the two together: a listed format without a reader, or a reader of an unlisted format, does not build). No
 * database here: tests, the command line and the importers read files through these.
 */
import { bridgeItems, type BridgePairOptions } from '@/lib/io/adapters/bridge';
import { pandalmAnnotations, pandalmJudgeLines, pandalmPairwiseItems } from '@/lib/io/adapters/pandalm';
import { failure, type RecordResult } from '@/lib/io/record-result';
import { concordRecords, readerFor, validated } from '@/lib/io/records';
import {
  annotationLineSchema,
  judgeLineSchema,
  pairwiseItemSchema,
  type AnnotationLine,
  type JudgeLine,
  type PairwiseItem,
} from '@/lib/validation/pairwise';
import type { FormatId } from '../facets/import-formats';
import { PAIRWISE_IMPORT_FORMATS } from './import-formats';

type Formats = typeof PAIRWISE_IMPORT_FORMATS;

export const PAIRWISE_ITEM_READERS = {
  concord: (path: string) => concordRecords(pairwiseItemSchema, path),
  bridge: (path: string, bridge?: BridgePairOptions) => validated(pairwiseItemSchema, bridgeItems(path, bridge), 'record'),
  pandalm: (path: string) => validated(pairwiseItemSchema, pandalmPairwiseItems(path), 'record'),
} satisfies Record<FormatId<Formats['items']>, (path: string, bridge?: BridgePairOptions) => Generator<RecordResult<PairwiseItem>>>;

export const PAIRWISE_ANNOTATION_READERS = {
  concord: (path: string) => concordRecords(annotationLineSchema, path),
  pandalm: (path: string) => validated(annotationLineSchema, pandalmAnnotations(path), 'record'),
} satisfies Record<FormatId<Formats['annotations']>, (path: string) => Generator<RecordResult<AnnotationLine>>>;

function* requireJudge(results: Iterable<RecordResult<JudgeLine>>, judgeName: string): Generator<RecordResult<JudgeLine>> {
  for (const r of results) {
    if (r.ok && r.value.judge !== judgeName) {
      yield failure(r.line, 'judge', `is "${r.value.judge}", but this file is being imported as the run "${judgeName}"`);
    } else yield r;
  }
}

export const PAIRWISE_JUDGE_READERS = {
  // Each line names its judge; when a run name is given, a line naming another judge is an error.
  concord: (path: string, judgeName?: string) => {
    const lines = concordRecords(judgeLineSchema, path);
    return judgeName === undefined ? lines : requireJudge(lines, judgeName);
  },
  // The run is named by `judgeName`, by default after the file (e.g. `gpt-3.5-turbo`).
  pandalm: (path: string, judgeName?: string) => validated(judgeLineSchema, pandalmJudgeLines(path, judgeName), 'record'),
} satisfies Record<FormatId<Formats['judge']>, (path: string, judgeName?: string) => Generator<RecordResult<JudgeLine>>>;

export type PairwiseItemFormat = FormatId<Formats['items']>;

/** Pairwise items from a Concord JSONL file, a Bridge folder (`bridge` picks the two replies) or PandaLM's testset-v1.json. */
export function pairwiseRecords(
  path: string,
  format: PairwiseItemFormat,
  bridge?: BridgePairOptions,
): Generator<RecordResult<PairwiseItem>> {
  return readerFor<(p: string, b?: BridgePairOptions) => Generator<RecordResult<PairwiseItem>>>(
    PAIRWISE_ITEM_READERS,
    format,
    'pairwise',
  )(path, bridge);
}

/** Prior human annotations from a Concord JSONL file, or the three annotators of PandaLM's testset-v1.json. */
export function annotationRecords(
  path: string,
  format: FormatId<Formats['annotations']> = 'concord',
): Generator<RecordResult<AnnotationLine>> {
  return readerFor(PAIRWISE_ANNOTATION_READERS, format, 'annotation')(path);
}

/**
 * Judge outputs from a Concord JSONL file or a PandaLM judge file. Unparseable PandaLM verdicts are failures whose
 * message says "unparseable verdict '<value>'".
 */
export function judgeRecords(path: string, format: FormatId<Formats['judge']>, judgeName?: string): Generator<RecordResult<JudgeLine>> {
  return readerFor(PAIRWISE_JUDGE_READERS, format, 'judge')(path, judgeName);
}
