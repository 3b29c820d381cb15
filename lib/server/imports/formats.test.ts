import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { formatIdsOf, type ImportPurpose } from '@/lib/kinds/import-formats';
import type { StudyKind } from '@/lib/validation/labels';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import type { Actor } from '../actor';
import { DomainError } from '../errors';
import { createStudy } from '../studies/studies';
import { importItems } from './imports';
import { importJudge } from './judge-import';
import { importAnnotations } from './prior-annotations';

// Every import checks its format against the one list of the study's kind (lib/kinds/<kind>/import-formats.ts):
// what the format picker offers is what the importer takes, and an unknown format is refused the same way for
// items, prior annotations and judge runs of every kind — naming the formats there are, and the `format` field.
const { dir } = useTestDatabase();

let lead: Actor;
const studies = {} as Record<StudyKind, number>;
beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  studies.flow_review = createStudy(lead, { kind: 'flow_review', name: 'Flows' }).id;
  studies.pairwise = createStudy(lead, { kind: 'pairwise', name: 'Pairs' }).id;
  studies.rubric = createStudy(lead, { kind: 'rubric', name: 'Rubric', dimensions: 'mrbench-v3' }).id;
});

const importers: Record<ImportPurpose, (studyId: number, file: string, format: string) => unknown> = {
  items: (studyId, file, format) => importItems(lead, studyId, file, format),
  annotations: (studyId, file, format) => importAnnotations(lead, studyId, file, format),
  judge: (studyId, file, format) => importJudge(lead, studyId, file, format),
};

/** What refused the import: a DomainError (a refusal of the use-case) or, for a reader, a plain Error. */
function refusal(fn: () => unknown): Error & Partial<Pick<DomainError, 'code' | 'fieldErrors'>> {
  try {
    fn();
  } catch (e) {
    if (e instanceof Error) return e;
    throw e;
  }
  throw new Error('expected the import to be refused');
}

const KINDS: StudyKind[] = ['flow_review', 'pairwise', 'rubric'];
const PURPOSES: ImportPurpose[] = ['items', 'annotations', 'judge'];

describe('import formats, one list per kind', () => {
  for (const kind of KINDS) {
    for (const purpose of PURPOSES) {
      const listed = formatIdsOf(kind, purpose);
      if (listed.length === 0) {
        it(`a ${kind} study imports no ${purpose}, and says which kinds do`, () => {
          const file = writeTemp(dir, `none-${kind}-${purpose}.jsonl`, '');
          const e = refusal(() => importers[purpose](studies[kind], file, 'concord'));
          expect(e.code).toBe('invalid');
          expect(e.message).toMatch(/can only be imported into a pairwise or rubric study\.$/);
        });
        continue;
      }
      it(`a ${kind} study takes every ${purpose} format its list names (${listed.join(', ')})`, () => {
        const file = writeTemp(dir, `empty-${kind}-${purpose}.jsonl`, '');
        for (const format of listed) {
          // An empty file is refused, but by the reader (Bridge wants its folder) or the "no records" rule: the format
          // itself is taken.
          const e = refusal(() => importers[purpose](studies[kind], file, format));
          expect(e.fieldErrors?.format, `${kind} ${purpose} ${format}: ${e.message}`).toBeUndefined();
          expect(e.message).not.toMatch(/Unknown format/);
        }
      });
      it(`a ${kind} study refuses a ${purpose} format its list does not name, naming the format field and the list`, () => {
        const file = writeTemp(dir, `unknown-${kind}-${purpose}.jsonl`, '');
        const e = refusal(() => importers[purpose](studies[kind], file, 'csv'));
        expect(e.code).toBe('invalid');
        expect(e.fieldErrors).toEqual({ format: 'Unknown format' });
        expect(e.message).toBe(
          `Unknown format "csv" for ${purpose === 'judge' ? 'judge runs' : purpose === 'items' ? 'items' : 'prior annotations'} of a ${kind} study; use one of: ${listed.join(', ')}.`,
        );
      });
    }
  }
});

describe('one rule for every kind', () => {
  it('refuses a judge file with no readable verdict, even named, in a pairwise study as in a rubric one', () => {
    // The pairwise twin made an empty run of it when a run name was given; the rubric twin refused it.
    const studyId = createStudy(lead, { kind: 'pairwise', name: 'Unreadable', reviewersPerItem: 1 }).id;
    const item = { id: 'pandalm-0', problem: 'p', a: { source: 'm', text: 'a' }, b: { source: 'ref', text: 'b' } };
    importItems(lead, studyId, writeTemp(dir, 'one-item.jsonl', `${JSON.stringify(item)}\n`), 'concord');
    const file = writeTemp(dir, 'unreadable-testset-v1.json', JSON.stringify([{ idx: 0, judge_result: 'maybe' }]));
    const e = refusal(() => importJudge(lead, studyId, file, 'pandalm', 'named-run'));
    expect(e.message).toBe('The file has no readable verdicts.');
    expect(getDb().$client.prepare('SELECT count(*) FROM judge_runs WHERE study_id = ?').pluck().get(studyId)).toBe(0);
  });
});
