import { describe, expect, it } from 'vitest';
import { FLOW_ITEM_READERS } from './flow/records';
import { findImportFormat, formatIdsOf, importFormat, importFormatsOf, kindsImporting } from './import-formats';
import { PAIRWISE_ANNOTATION_READERS, PAIRWISE_ITEM_READERS, PAIRWISE_JUDGE_READERS } from './pairwise/records';
import { RUBRIC_ANNOTATION_READERS, RUBRIC_ITEM_READERS, RUBRIC_JUDGE_READERS } from './rubric/records';
import type { StudyKind } from '@/lib/validation/labels';

// The import formats are listed once per kind; the readers, the upload check and the format picker follow the list.
const READERS = {
  flow_review: { items: FLOW_ITEM_READERS, annotations: {}, judge: {} },
  pairwise: { items: PAIRWISE_ITEM_READERS, annotations: PAIRWISE_ANNOTATION_READERS, judge: PAIRWISE_JUDGE_READERS },
  rubric: { items: RUBRIC_ITEM_READERS, annotations: RUBRIC_ANNOTATION_READERS, judge: RUBRIC_JUDGE_READERS },
} as const;
const KINDS: StudyKind[] = ['flow_review', 'pairwise', 'rubric'];

describe('import formats', () => {
  it('has a reader for every listed format and lists every format a reader reads', () => {
    for (const kind of KINDS)
      for (const purpose of ['items', 'annotations', 'judge'] as const)
        expect(Object.keys(READERS[kind][purpose]), `${kind} ${purpose}`).toEqual(formatIdsOf(kind, purpose));
  });

  it('reads the annotations an item format brings with the annotation format of the same id', () => {
    for (const kind of KINDS)
      for (const f of importFormatsOf(kind).items.filter((g) => g.bringsAnnotations))
        expect(findImportFormat(kind, 'annotations', f.id), `${kind} ${f.id}`).toBeDefined();
  });

  it('offers the web upload every item format but those read from a dataset directory (Bridge)', () => {
    expect(formatIdsOf('pairwise', 'items')).toEqual(['concord', 'bridge', 'pandalm']);
    expect(formatIdsOf('pairwise', 'items', { upload: true })).toEqual(['concord', 'pandalm']);
    expect(findImportFormat('pairwise', 'items', 'bridge')?.commandLineOnly).toMatch(/concord import items --format bridge/);
    expect(formatIdsOf('rubric', 'items', { upload: true })).toEqual(formatIdsOf('rubric', 'items'));
  });

  it('names every format the picker may be handed, and knows which judge formats hold several judges', () => {
    for (const kind of KINDS)
      for (const purpose of ['items', 'annotations', 'judge'] as const)
        for (const id of formatIdsOf(kind, purpose)) expect(importFormat(purpose, id)?.name, `${kind} ${purpose} ${id}`).toBeTruthy();
    expect(importFormat('judge', 'aitutor-evalkit')?.judgeInFile).toBe(true);
    expect(importFormat('judge', 'pandalm')?.judgeInFile).toBeUndefined();
    expect(kindsImporting('judge')).toEqual(['pairwise', 'rubric']);
  });
});
