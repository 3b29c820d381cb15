import { describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { cohenKappa, contingencyTable, fleissKappa, itemCountsFromRaters, krippendorffAlpha } from '@/lib/stats';
import { CATALOG, MI, ROWS, S, Y, wilson, lead, studyId, useReportsStudy } from '@/test/rubric-fixtures-study';
import { rubricAgreementReport } from './agreement';

useReportsStudy();

describe('rubricAgreementReport', () => {
  it('measures each dimension on its own label set, the pending review left out', () => {
    const r = rubricAgreementReport(lead, studyId, { bootstrap: 0 });
    // The JSON the API and `concord report agreement --json` give, field by field in order (one core for both kinds).
    expect(Object.keys(r)).toEqual(['studyId', 'kind', 'bootstrap', 'dimensions', 'criteria', 'macro']);
    expect(r.criteria.map((c) => [c.criterion, c.labels, c.items, c.ratings])).toEqual([
      [MI, ['No', 'To some extent', 'Yes'], 7, 15],
      ['leak', ['REJECT', 'OK'], 7, 15],
    ]);
    // Independently: alice and bob on the seven items both submitted (i7 excluded), as codes.
    const pairs = ROWS.filter(([id]) => id !== 'i7');
    for (const [d, dim] of CATALOG.entries()) {
      const a = Int8Array.from(pairs, ([, , alice]) => dim.labels.indexOf(alice[d]));
      const b = Int8Array.from(pairs, ([, , , bob]) => dim.labels.indexOf(bob[d]));
      const q = dim.labels.length;
      const table = contingencyTable(a, b, q);
      const c = r.criteria[d];
      const agreed = pairs.filter(([, , alice, bob]) => alice[d] === bob[d]).length;
      expect(c.percentAgreement.value).toBeCloseTo(agreed / 7, 12);
      expect(c.intervals.percentAgreement).toEqual(wilson(agreed, 7));
      expect(c.pairs).toHaveLength(1);
      expect(c.pairs[0].annotators).toEqual(['alice', 'bob']);
      expect(c.pairs[0].cohenKappa.value).toBeCloseTo(cohenKappa(table).value!, 12);
      expect(c.pairs[0].cohenKappaLinear.value).toBeCloseTo(cohenKappa(table, { weights: 'linear' }).value!, 12);
      expect(c.pairs[0].cohenKappaQuadratic.value).toBeCloseTo(cohenKappa(table, { weights: 'quadratic' }).value!, 12);
      // i7 has alice's label only (bob's review is pending): Krippendorff's α takes it as unpairable; the generalised
      // Fleiss κ counts it in the label shares π_k, not in the agreement P̄ (lib/stats/SPEC.md).
      const counts = itemCountsFromRaters([a, b], q);
      const withI7 = itemCountsFromRaters(
        [
          Int8Array.from(ROWS, ([, , alice]) => dim.labels.indexOf(alice[d])),
          Int8Array.from(ROWS, ([id, , , bob]) => (id === 'i7' ? -1 : dim.labels.indexOf(bob[d]))),
        ],
        q,
      );
      expect(c.fleissKappa.value).toBeCloseTo(fleissKappa(withI7).value!, 12);
      expect(c.krippendorffAlphaNominal.value).toBeCloseTo(krippendorffAlpha(counts, { metric: 'nominal' }).value!, 12);
      expect(c.krippendorffAlphaOrdinal.value).toBeCloseTo(krippendorffAlpha(counts, { metric: 'ordinal' }).value!, 12);
      expect(fleissKappa(counts).value).not.toBeNull();
    }
    expect(r.criteria[0].percentAgreement.value).toBeCloseTo(5 / 7, 12);
  });

  it('bootstraps the intervals reproducibly (same study seed, same intervals)', () => {
    const a = rubricAgreementReport(lead, studyId, { bootstrap: 200 });
    const b = rubricAgreementReport(lead, studyId, { bootstrap: 200 });
    expect(a.criteria[0].pairs[0].intervals.cohenKappa).toEqual(b.criteria[0].pairs[0].intervals.cohenKappa);
    expect(a.criteria[0].pairs[0].intervals.cohenKappa.lower).not.toBeNull();
  });
});

describe('rubric labels and rulings are append-only (migration 0017)', () => {
  it('refuses an edit, and a delete that leaves their annotation or item behind', () => {
    const sql = getDb().$client;
    // alice's label on i2's first dimension: "To some extent" (code 1), as the fixture wrote it.
    const [annotationId, dimension, code] = sql
      .prepare(
        `SELECT l.annotation_id, l.dimension, l.label FROM rubric_labels l JOIN annotations n ON n.id = l.annotation_id
         JOIN assignments a ON a.id = n.assignment_id JOIN items i ON i.id = a.item_id JOIN users u ON u.id = a.user_id
         WHERE a.study_id = ? AND i.external_id = 'i2' AND u.username = 'alice' AND l.dimension = 0`,
      )
      .raw()
      .get(studyId) as [number, number, number];
    expect([dimension, code]).toEqual([0, CATALOG[0].labels.indexOf(S)]);
    const label = [annotationId, dimension] as const;
    expect(() => sql.prepare('UPDATE rubric_labels SET label = 0 WHERE annotation_id = ? AND dimension = ?').run(...label)).toThrow(
      /append-only/,
    );
    expect(() => sql.prepare('DELETE FROM rubric_labels WHERE annotation_id = ? AND dimension = ?').run(...label)).toThrow(
      /deleted only with their annotation/,
    );
    // The ruling on i2's first dimension: "Yes".
    const [ruling, rulingDimension, rulingCode] = sql
      .prepare(
        "SELECT r.id, r.dimension, r.label FROM rubric_adjudications r JOIN items i ON i.id = r.item_id WHERE i.study_id = ? AND i.external_id = 'i2'",
      )
      .raw()
      .get(studyId) as [number, number, number];
    expect([rulingDimension, rulingCode]).toEqual([0, CATALOG[0].labels.indexOf(Y)]);
    expect(() => sql.prepare('UPDATE rubric_adjudications SET label = 0 WHERE id = ?').run(ruling)).toThrow(/append-only/);
    expect(() => sql.prepare('DELETE FROM rubric_adjudications WHERE id = ?').run(ruling)).toThrow(/deleted only with their item/);
  });
});
