import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { makeUser, useTestDatabase } from '@/test/db';
import { buildStudy, codeOf, labels } from '@/test/analytics-fixtures';
import { CATALOG, MI, N, Y } from '@/test/rubric-fixtures-study';
import { buildRubricStudy } from '@/test/rubric-fixtures-reports';
import { itemRefOf } from '@/lib/kinds/rubric/item-refs';
import { findStudy } from '@/db/queries/studies';
import type { Actor } from '../actor';
import { excludeAnnotator, includeAnnotator } from '../analytics/annotators-exclusions';
import { getAdjudicationItem, getAdjudicationQueue, getRubricAdjudicationItem } from './adjudication';

/*
 * The adjudication queue honours exclusions (decision 0029): an item disputed only through an excluded annotator's
 * labels is not in it, and the disputed items the adjudicator still sees show the counting reviewers only. Three
 * reviewers under agreed-or-adjudicated (W win, L lose):
 *
 *   item   r1  r2  r3    with r3        without r3
 *   x1     W   W   L     disputed       agreed (win)
 *   x2     L   W   W     disputed       disputed (L : W)
 *   x3     L   L   L     agreed         agreed
 */
const { dir } = useTestDatabase();
let lead: Actor;

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
});

const itemIdOf = (studyId: number, externalId: string) =>
  getDb().$client.prepare('SELECT id FROM items WHERE study_id = ? AND external_id = ?').pluck().get(studyId, externalId) as number;

describe('the adjudication queue and exclusions', () => {
  it('leaves out a pairwise item split only by an excluded annotator, and their labels from the items left', () => {
    const given: Record<string, string[]> = { x1: ['W', 'W', 'L'], x2: ['L', 'W', 'W'], x3: ['L', 'L', 'L'] };
    const studyId = buildStudy(lead, dir, {
      name: 'Pairwise exclusions',
      reviewersPerItem: 3,
      catalog: [],
      items: Object.keys(given).map((id) => ({ id, model: 'm1' })),
      annotations: Object.entries(given).flatMap(([item, ls]) =>
        ls.map((l, k) => ({ item, annotator: `r${k + 1}`, labels: labels(['overall'], l) })),
      ),
      judges: [],
    });
    const [x1, x2] = [itemIdOf(studyId, 'x1'), itemIdOf(studyId, 'x2')];
    const queue = () => getAdjudicationQueue(lead, studyId);
    expect(queue().items.map((i) => i.itemId)).toEqual([x1, x2]);
    expect(getAdjudicationItem(lead, studyId, x2).reviewerCount).toBe(3);

    excludeAnnotator(lead, studyId, 'r3');
    expect(queue()).toMatchObject({ total: 1, resolved: 0, currentItemId: x2, items: [{ itemId: x2, disagreements: 1 }] });
    // The item no longer disputed cannot be opened; the one left shows the two counting reviewers.
    expect(codeOf(() => getAdjudicationItem(lead, studyId, x1))).toBe('not_found');
    const view = getAdjudicationItem(lead, studyId, x2);
    expect(view.reviewerCount).toBe(2);
    expect(view.criteria.find((c) => c.id === 'overall')!.reviewers).toHaveLength(2);

    includeAnnotator(lead, studyId, 'r3');
    expect(queue().items.map((i) => i.itemId)).toEqual([x1, x2]);
  });

  it('leaves out a rubric item split only by an excluded annotator, and their labels from the items left', () => {
    // x4's third review was taken back (pending): the item waits for it until q3 is excluded.
    const given: Record<string, string[]> = { x1: [Y, Y, N], x2: [N, Y, Y], x3: [N, N, N], x4: [Y, N, N] };
    const studyId = buildRubricStudy(lead, {
      name: 'Rubric exclusions',
      catalog: CATALOG,
      reviewersPerItem: 3,
      items: Object.keys(given).map((id) => ({ id, source: 'm1' })),
      annotations: Object.entries(given).flatMap(([item, ls]) =>
        ls.map((l, k) => ({ item, annotator: `q${k + 1}`, labels: { [MI]: l }, pending: item === 'x4' && k === 2 })),
      ),
    });
    // q3 excluded from another study changes nothing here.
    const other = buildRubricStudy(lead, {
      name: 'Another rubric study',
      catalog: CATALOG,
      reviewersPerItem: 1,
      items: [{ id: 'y1', source: 'm1' }],
      annotations: [{ item: 'y1', annotator: 'q3', labels: { [MI]: Y } }],
    });
    excludeAnnotator(lead, other, 'q3');
    const study = findStudy(getDb(), studyId)!;
    const [x1, x2, x4] = ['x1', 'x2', 'x4'].map((x) => itemRefOf(study, itemIdOf(studyId, x)));
    const refs = () => getAdjudicationQueue(lead, studyId).items.map((i) => i.itemId);
    expect(refs().sort()).toEqual([x1, x2].sort());
    expect(codeOf(() => getRubricAdjudicationItem(lead, studyId, x4))).toBe('not_found');

    excludeAnnotator(lead, studyId, 'q3');
    // x4 no longer waits for q3's review, and q1 and q2 disagree on it.
    expect(refs().sort()).toEqual([x2, x4].sort());
    expect(getRubricAdjudicationItem(lead, studyId, x4).dimensions.find((d) => d.id === MI)!.reviewers).toEqual([Y, N]);
    expect(codeOf(() => getRubricAdjudicationItem(lead, studyId, x1))).toBe('not_found');
    const view = getRubricAdjudicationItem(lead, studyId, x2);
    expect(view.reviewerCount).toBe(2);
    expect(view.dimensions.find((d) => d.id === MI)!.reviewers).toEqual([N, Y]);
  });
});
