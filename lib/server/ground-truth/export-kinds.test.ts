import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, useTestDatabase } from '@/test/db';
import type { Actor } from '../actor';
import { DomainError } from '../errors';
import { importItems } from '../imports/imports';
import { createStudy } from '../studies/studies';
import { studyKind } from '@/lib/kinds/registry';
import { exportGroundTruth } from './ground-truth';

// One export for every kind: the kind brings its columns, the core its checks, its audit entry and its streaming.
useTestDatabase();
const DATA = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style');
let lead: Actor;
const ids = { flow: 0, pair: 0, rubric: 0 };
beforeAll(async () => {
  lead = await makeUser('gtlead', 'lead');
  ids.flow = createStudy(lead, { kind: 'flow_review', name: 'F' }).id;
  ids.pair = createStudy(lead, { kind: 'pairwise', name: 'P' }).id;
  importItems(lead, ids.pair, path.join(DATA, 'pairwise.jsonl'), 'concord');
  ids.rubric = createStudy(lead, { kind: 'rubric', name: 'R', dimensions: 'ok-reject' }).id;
  importItems(lead, ids.rubric, path.join(DATA, 'rubric.jsonl'), 'concord');
});

const header = (studyId: number) => [...exportGroundTruth(lead, studyId, 'csv').lines][0].trim().replaceAll('"', '');

describe('the ground-truth export of each kind', () => {
  it('writes each kind its own columns', () => {
    expect(header(ids.pair)).toBe('item,criterion,label,provenance,reviewer1_label,reviewer2_label,adjudicator,rationale');
    expect(header(ids.rubric)).toBe(
      'item,group,source,dimension,label,lenient_label,provenance,reviewer1_label,reviewer2_label,adjudicator,rationale',
    );
  });

  it('takes the columns that name a row from the kind, the rest from the core', () => {
    for (const [kind, id] of [
      ['pairwise', ids.pair],
      ['rubric', ids.rubric],
    ] as const) {
      const own = studyKind(kind).groundTruth!.columns.map((c) => c.csv);
      expect(header(id).split(',')).toEqual([...own, 'provenance', 'reviewer1_label', 'reviewer2_label', 'adjudicator', 'rationale']);
    }
    expect(studyKind('flow_review').groundTruth).toBeNull();
  });

  it('refuses a kind without ground truth, and an unknown format, in words', () => {
    const message = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        if (e instanceof DomainError) return e.message;
        throw e;
      }
      return 'ok';
    };
    expect(message(() => exportGroundTruth(lead, ids.flow, 'csv'))).toBe(
      'A flow review study has no ground truth to export; export its flows instead.',
    );
    expect(message(() => exportGroundTruth(lead, ids.rubric, 'xlsx'))).toBe('Unknown format "xlsx"; use jsonl or csv.');
  });
});
