import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { findStudy } from '@/db/queries/studies';
import { makeUser, useTestDatabase } from '@/test/db';
import { buildStudy, codeOf, labels } from '@/test/analytics-fixtures';
import type { Actor } from '../actor';
import { groundTruth, summarize } from '../ground-truth/ground-truth';
import { agreementReport } from './agreement';
import { annotatorExclusions, excludeAnnotator, includeAnnotator } from './annotators-exclusions';
import { computeReport } from './report';

/*
 * Excluding an annotator (decision 0029) on a real database: three reviewers under the majority rule, their labels
 * on `overall` (W win, L lose):
 *
 *   item   r1  r2  r3    majority        without r3
 *   x1     W   W   L     win             win (agreed)
 *   x2     L   W   W     win             open (1 : 1, no majority) → left out
 *   x3     L   L   L     lose            lose (agreed)
 */
const C = ['overall'];
const { dir } = useTestDatabase();
let lead: Actor;
let annotator: Actor;
let studyId: number;

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  annotator = await makeUser('ann', 'annotator');
  const given: Record<string, string[]> = { x1: ['W', 'W', 'L'], x2: ['L', 'W', 'W'], x3: ['L', 'L', 'L'] };
  studyId = buildStudy(lead, dir, {
    name: 'Exclusions',
    reviewersPerItem: 3,
    groundTruthRule: 'majority',
    catalog: [],
    items: Object.keys(given).map((id) => ({ id, model: 'm1' })),
    annotations: Object.entries(given).flatMap(([item, ls]) => ls.map((l, k) => ({ item, annotator: `r${k + 1}`, labels: labels(C, l) }))),
    judges: [],
  });
});

const truth = () => {
  const study = findStudy(getDb(), studyId)!;
  return Object.fromEntries([...groundTruth(getDb(), study)].map((r) => [r.item, r.label]));
};
const complete = () => summarize(getDb(), findStudy(getDb(), studyId)!).complete;
const auditActions = () =>
  getDb()
    .$client.prepare(
      "SELECT action || ':' || json_extract(detail, '$.username') FROM audit_log WHERE action LIKE 'annotator.%' ORDER BY id",
    )
    .pluck()
    .all();

describe('excluding an annotator', () => {
  it('takes their labels out of the ground truth and the reports, and brings them back when included', () => {
    expect(truth()).toEqual({ x1: 'win', x2: 'win', x3: 'lose' });
    expect(complete()).toBe(3);

    const out = excludeAnnotator(lead, studyId, 'r3');
    expect(out.labels).toBe(3);
    expect(out.annotators.map((a) => [a.username, a.labels, a.excludedBy])).toEqual([['r3', 3, 'lead']]);
    expect(truth()).toEqual({ x1: 'win', x3: 'lose' });
    expect(complete()).toBe(2);
    // The agreement report reads through the same filter: no pair with r3 is left.
    const pairs = agreementReport(lead, studyId, { bootstrap: '0' }).criteria[0].pairs.map((p) => p.annotators.join('+'));
    expect(pairs).toEqual(['r1+r2']);
    // Every report says what it left out.
    expect(computeReport(lead, studyId, 'agreement', { bootstrap: '0' }).excluded).toMatchObject({
      labels: 3,
      annotators: [{ username: 'r3' }],
    });

    const back = includeAnnotator(lead, studyId, 'r3');
    expect(back).toEqual({ labels: 0, annotators: [] });
    expect(truth()).toEqual({ x1: 'win', x2: 'win', x3: 'lose' });
    expect(complete()).toBe(3);
    expect(auditActions()).toEqual(['annotator.exclude:r3', 'annotator.include:r3']);
  });

  it('takes the account id as well as the username, and excluding twice changes nothing', () => {
    const id = getDb().$client.prepare("SELECT id FROM users WHERE username = 'r1'").pluck().get() as number;
    excludeAnnotator(lead, studyId, id);
    excludeAnnotator(lead, studyId, 'r1');
    expect(annotatorExclusions(lead, studyId).annotators.map((a) => a.username)).toEqual(['r1']);
    // Without r1, x1 splits 1 : 1 and is left out.
    expect(truth()).toEqual({ x2: 'win', x3: 'lose' });
    includeAnnotator(lead, studyId, id);
    expect(auditActions().slice(2)).toEqual(['annotator.exclude:r1', 'annotator.include:r1']);
  });

  it('is for leads and admins only, and for annotators of the study', () => {
    expect(codeOf(() => excludeAnnotator(annotator, studyId, 'r2'))).toBe('forbidden');
    expect(codeOf(() => includeAnnotator(annotator, studyId, 'r2'))).toBe('forbidden');
    expect(codeOf(() => annotatorExclusions(annotator, studyId))).toBe('forbidden');
    expect(codeOf(() => excludeAnnotator(lead, studyId, 'ann'))).toBe('not_found');
    expect(codeOf(() => excludeAnnotator(lead, studyId, ''))).toBe('invalid');
    expect(annotatorExclusions(lead, studyId).annotators).toEqual([]);
  });
});
