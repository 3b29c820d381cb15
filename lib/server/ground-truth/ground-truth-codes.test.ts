import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { findStudy } from '@/db/queries/studies';
import { csvHeader, csvLine } from '@/lib/io/csv';
import { makeUser, useTestDatabase } from '@/test/db';
import type { Actor } from '../actor';
import { loadFrame, loadGold } from '../analytics/data';
import { buildStudy, labels } from '@/test/analytics-fixtures';
import { groundTruthRows, loadGoldRows, summarizeRows } from '@/test/ground-truth-reference';
import { exportGroundTruth, groundTruth, groundTruthCodes, summarize } from './ground-truth';

/*
 * The dashboards read ground truth as codes (`groundTruthCodes`); the exports read it row by row (`groundTruth`).
 * Both must follow the same rules: agreed → that label; else the newest adjudication; else, under the majority
 * rule, the strict majority; an item with a pending review, no labels or an unresolved criterion (also one no
 * longer in the catalog) is left out entirely.
 */

const { dir } = useTestDatabase();
const CRITERIA = ['clarity', 'correctness', 'overall'];
const CATALOG = [
  { id: 'clarity', name: 'Clarity', level: 'general', description: 'Which reply is clearer?' },
  { id: 'correctness', name: 'Correctness', level: 'general', description: 'Which reply is correct?' },
];
const L = (letters: string) => labels(CRITERIA, letters);

let lead: Actor;
let reviewed: number;
let majority: number;
let n = 0;

const itemId = (studyId: number, external: string) =>
  getDb().$client.prepare('SELECT id FROM items WHERE study_id = ? AND external_id = ?').pluck().get(studyId, external) as number;

function rule(studyId: number, external: string, criterion: string, label: string, revision = 1, rationale = `ruling ${revision}`) {
  getDb()
    .$client.prepare(
      'INSERT INTO adjudications (item_id, criterion, revision, label, rationale, adjudicator_id, request_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
    )
    .run(itemId(studyId, external), criterion, revision, label, rationale, lead.id, `adj-${String(++n).padStart(6, '0')}`);
}

/** A label on a criterion outside the catalog (e.g. one removed after the labels were made). */
function offCatalogLabel(studyId: number, external: string, annotator: string, label: string) {
  const db = getDb().$client;
  const annotation = db
    .prepare(
      `SELECT an.id FROM annotations an JOIN assignments a ON a.id = an.assignment_id JOIN users u ON u.id = a.user_id
        WHERE a.item_id = ? AND u.username = ?`,
    )
    .pluck()
    .get(itemId(studyId, external), annotator) as number;
  db.prepare('INSERT INTO labels (annotation_id, criterion, label) VALUES (?, ?, ?)').run(annotation, 'retired', label);
}

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  const items = (ids: string[]) => ids.map((id, k) => ({ id, model: k % 2 ? 'm2' : 'm1' }));
  reviewed = buildStudy(lead, dir, {
    name: 'Adjudicated',
    reviewersPerItem: 2,
    catalog: CATALOG,
    items: items(['g1', 'g2', 'g3', 'g4', 'g5', 'g6', 'g7', 'g8', 'g9']),
    annotations: [
      // g1 agreed everywhere
      { item: 'g1', annotator: 'r1', labels: L('WTL') },
      { item: 'g1', annotator: 'r2', labels: L('WTL') },
      // g2 disagrees on clarity, adjudicated twice (the newest counts)
      { item: 'g2', annotator: 'r1', labels: L('WTT') },
      { item: 'g2', annotator: 'r2', labels: L('LTT') },
      // g3 disagrees on overall, not adjudicated: incomplete
      { item: 'g3', annotator: 'r1', labels: L('WWW') },
      { item: 'g3', annotator: 'r2', labels: L('WWL') },
      // g4 one reviewer only, nothing pending: agreed
      { item: 'g4', annotator: 'r1', labels: L('TLW') },
      // g5 no labels: incomplete
      // g6 agreed on the catalog, split on a retired criterion: incomplete
      { item: 'g6', annotator: 'r1', labels: L('LLL') },
      { item: 'g6', annotator: 'r2', labels: L('LLL') },
      // g7 the same, with a ruling on the retired criterion: complete
      { item: 'g7', annotator: 'r1', labels: L('WWT') },
      { item: 'g7', annotator: 'r2', labels: L('WWT') },
      // g8 one review in, the other pending: incomplete
      { item: 'g8', annotator: 'r1', labels: L('WWW') },
      // g9 correctness left out by both: complete without it
      { item: 'g9', annotator: 'r1', labels: L('T-W') },
      { item: 'g9', annotator: 'r2', labels: L('T-W') },
    ],
    judges: [],
  });
  rule(reviewed, 'g2', 'clarity', 'tie', 1);
  rule(reviewed, 'g2', 'clarity', 'win', 2, '=SUM(A1), "both" missed it;\nsee line two');
  rule(reviewed, 'g1', 'overall', 'win', 1); // a ruling on an agreed criterion does not override the agreement
  offCatalogLabel(reviewed, 'g6', 'r1', 'win');
  offCatalogLabel(reviewed, 'g6', 'r2', 'lose');
  offCatalogLabel(reviewed, 'g7', 'r1', 'win');
  offCatalogLabel(reviewed, 'g7', 'r2', 'lose');
  rule(reviewed, 'g7', 'retired', 'tie', 1);
  const r2 = getDb().$client.prepare("SELECT id FROM users WHERE username = 'r2'").pluck().get() as number;
  getDb()
    .$client.prepare("INSERT INTO assignments (study_id, item_id, user_id, slot, queue_position, state) VALUES (?, ?, ?, 2, 99, 'pending')")
    .run(reviewed, itemId(reviewed, 'g8'), r2);

  majority = buildStudy(lead, dir, {
    name: 'Majority',
    reviewersPerItem: 3,
    groundTruthRule: 'majority',
    catalog: CATALOG,
    items: items(['m1', 'm2', 'm3', 'm4', 'm5']),
    annotations: [
      // m1 a strict majority on clarity (W, W, L)
      { item: 'm1', annotator: 'r1', labels: L('WTT') },
      { item: 'm1', annotator: 'r2', labels: L('WTT') },
      { item: 'm1', annotator: 'r3', labels: L('LTT') },
      // m2 W/T/L on overall, no ruling: incomplete
      { item: 'm2', annotator: 'r1', labels: L('TTW') },
      { item: 'm2', annotator: 'r2', labels: L('TTT') },
      { item: 'm2', annotator: 'r3', labels: L('TTL') },
      // m3 the same with a ruling: adjudicated
      { item: 'm3', annotator: 'r1', labels: L('TTW') },
      { item: 'm3', annotator: 'r2', labels: L('TTT') },
      { item: 'm3', annotator: 'r3', labels: L('TTL') },
      // m4 two reviewers split (W, L): no majority, incomplete
      { item: 'm4', annotator: 'r1', labels: L('WWW') },
      { item: 'm4', annotator: 'r2', labels: L('WWL') },
      // m5 agreed everywhere
      { item: 'm5', annotator: 'r1', labels: L('LLL') },
      { item: 'm5', annotator: 'r2', labels: L('LLL') },
      { item: 'm5', annotator: 'r3', labels: L('LLL') },
    ],
    judges: [],
  });
  rule(majority, 'm3', 'overall', 'lose', 1);
  rule(majority, 'm1', 'clarity', 'tie', 1); // the ruling beats the majority, as in groundTruth
});

/** Gold of one item by criterion, as letters ('-' = none). */
function goldOf(gold: Int8Array, nItems: number, index: number) {
  return CRITERIA.map((_, c) => (gold[c * nItems + index] < 0 ? '-' : 'LTW'[gold[c * nItems + index]])).join('');
}

describe('ground truth as codes', () => {
  it('agrees with the row-by-row ground truth on agreed, adjudicated, majority and incomplete items', () => {
    for (const studyId of [reviewed, majority]) {
      const db = getDb();
      const study = findStudy(db, studyId)!;
      const frame = loadFrame(db, study);
      const fast = groundTruthCodes(db, study, frame.criterionIds);
      const rows = loadGoldRows(db, frame);
      expect(fast.n).toBe(frame.n);
      expect([...fast.gold]).toEqual([...rows.gold]);
      expect(fast.labels).toBe(rows.labels);
      expect(fast.incompleteItems).toBe(rows.incompleteItems);
      expect(loadGold(db, frame)).toEqual(rows);
      // The rows themselves count the same labels (the catalog covers every counted criterion here but 'retired').
      let count = 0;
      for (const r of groundTruth(db, study)) if (r.criterion !== 'retired') count++;
      expect(count).toBe(fast.labels);
    }
  });

  it('yields the same rows, in the same order, as the row-by-row reading (the export path)', () => {
    const db = getDb();
    for (const studyId of [reviewed, majority]) {
      const study = findStudy(db, studyId)!;
      const leftOut: string[] = [];
      const leftOutRows: string[] = [];
      const fast = [...groundTruth(db, study, (id) => leftOut.push(id))];
      const rows = [...groundTruthRows(db, study, (id) => leftOutRows.push(id))];
      expect(fast).toEqual(rows);
      expect(fast.map((r) => Object.keys(r))).toEqual(rows.map((r) => Object.keys(r)));
      expect(leftOut).toEqual(leftOutRows);
    }
    const g7 = [...groundTruth(db, findStudy(db, reviewed)!)].filter((r) => r.item === 'g7');
    expect(g7.map((r) => [r.criterion, r.label, r.provenance])).toEqual([
      ['clarity', 'win', 'agreed'],
      ['correctness', 'win', 'agreed'],
      ['overall', 'tie', 'agreed'],
      ['retired', 'tie', 'adjudicated'],
    ]);
  });

  it('exports the CSV a csvLine per row would give (batched), hostile cells included', () => {
    const db = getDb();
    for (const studyId of [reviewed, majority]) {
      const study = findStudy(db, studyId)!;
      const slots = study.reviewersPerItem;
      const expected =
        csvHeader([
          'item',
          'criterion',
          'label',
          'provenance',
          ...Array.from({ length: slots }, (_, i) => `reviewer${i + 1}_label`),
          'adjudicator',
          'rationale',
        ]) +
        [...groundTruthRows(db, study)]
          .map((r) =>
            csvLine([
              r.item,
              r.criterion,
              r.label,
              r.provenance,
              ...r.reviewers.map((l) => l ?? ''),
              r.adjudicator ?? '',
              r.rationale ?? '',
            ]),
          )
          .join('');
      const csv = [...exportGroundTruth(lead, studyId, 'csv').lines].join('');
      expect(csv).toBe(expected);
    }
    expect([...exportGroundTruth(lead, reviewed, 'csv').lines].join('')).toContain(`"'=SUM(A1), ""both"" missed it;\nsee line two"`);
  });

  it('summarizes exactly as counting the rows does', () => {
    const db = getDb();
    const a = summarize(db, findStudy(db, reviewed)!);
    expect(a).toEqual(summarizeRows(db, findStudy(db, reviewed)!));
    // g7's ruling on the retired criterion counts as a label and an adjudication, as in the export.
    expect(a).toMatchObject({ items: 9, complete: 5, incomplete: 4, labels: 15, adjudicated: 2 });
    const m = summarize(db, findStudy(db, majority)!);
    expect(m).toEqual(summarizeRows(db, findStudy(db, majority)!));
    expect(m).toMatchObject({ items: 5, complete: 3, incomplete: 2, labels: 9, adjudicated: 2 });
  });

  it('applies each rule as documented', () => {
    const db = getDb();
    const a = findStudy(db, reviewed)!;
    const fa = groundTruthCodes(db, a, CRITERIA);
    const ga = (k: number) => goldOf(fa.gold, fa.n, k);
    expect([ga(0), ga(1), ga(2), ga(3), ga(4), ga(5), ga(6), ga(7), ga(8)]).toEqual([
      'WTL',
      'WTT',
      '---',
      'TLW',
      '---',
      '---',
      'WWT',
      '---',
      'T-W',
    ]);
    expect(fa.incompleteItems).toBe(4);
    expect(fa.labels).toBe(3 * 4 + 2);
    const m = findStudy(db, majority)!;
    const fm = groundTruthCodes(db, m, CRITERIA);
    const gm = (k: number) => goldOf(fm.gold, fm.n, k);
    expect([gm(0), gm(1), gm(2), gm(3), gm(4)]).toEqual(['TTT', '---', 'TTL', '---', 'LLL']);
    expect(fm.incompleteItems).toBe(2);
  });
});
