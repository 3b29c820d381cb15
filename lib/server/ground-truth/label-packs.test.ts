import { beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '@/lib/assign/random';
import { getDb } from '@/db/client';
import { findStudy } from '@/db/queries/studies';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import { expectReadersMatchRows, packMismatches } from '@/test/packs';
import type { Actor } from '../actor';
import { getAdjudicationItem, submitAdjudication } from '../review/adjudication';
import { codeMap, groundTruth } from './ground-truth';
import { importItems } from '../imports/imports';
import { getJudgeAssignment, submitJudgment } from '../review/judging';
import { importJudge } from '../imports/judge-import';
import { importAnnotations } from '../imports/prior-annotations';
import { getQueue, undoLastSubmission } from '../review/flow-review';
import { createStudy, openStudy, setStudyCriteria, setStudyMembers } from '../studies/studies';

/*
 * The dashboards read labels, verdicts and rulings from packs kept by triggers (migration 0007). These tests write
 * through every path — submissions and their revisions, undo, prior-annotation and judge imports in both orders,
 * adjudications and their revisions, plain SQL — and check that the packs equal the rows and that the pack-based
 * readers return what a direct reading of the rows gives.
 */

const { dir } = useTestDatabase();
const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
const catalog = (ids: string[]) => ids.map((id) => ({ id, name: id, level: 'general', description: `Which reply is better on ${id}?` }));
let n = 0;
const rid = () => `pack-${String(++n).padStart(6, '0')}`;

let lead: Actor, r1: Actor, r2: Actor, adj: Actor;

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  [r1, r2, adj] = await Promise.all(['r1', 'r2', 'adj'].map((u) => makeUser(u)));
});

describe('every write path keeps the packs equal to the rows', () => {
  let studyId: number;
  const items = ['p1', 'p2', 'p3', 'p4', 'p5'];

  it('imports of prior annotations and of judge runs in both orders, on a catalog that later loses a criterion', () => {
    studyId = createStudy(lead, { kind: 'pairwise', name: 'Packs', reviewersPerItem: 2, seed: 5 }).id;
    setStudyCriteria(lead, studyId, catalog(['clarity', 'correctness', 'retired']));
    importItems(
      lead,
      studyId,
      writeTemp(
        dir,
        'pack-items.jsonl',
        jsonl(
          items.map((id, k) => ({
            id,
            problem: `Problem ${id}`,
            a: { source: `m${k % 2}`, text: `A ${id}` },
            b: { source: 'ref', text: `B ${id}` },
          })),
        ),
      ),
      'concord',
    );
    importAnnotations(
      lead,
      studyId,
      writeTemp(
        dir,
        'pack-prior.jsonl',
        jsonl([
          { item: 'p1', annotator: 'ext1', labels: { clarity: 'win', correctness: 'tie', retired: 'win', overall: 'win' } },
          { item: 'p1', annotator: 'ext2', labels: { clarity: 'lose', correctness: 'tie', retired: 'lose', overall: 'win' } },
        ]),
      ),
    );
    importJudge(
      lead,
      studyId,
      writeTemp(
        dir,
        'pack-judge-a.jsonl',
        jsonl(
          items.map((item, k) => ({
            item,
            judge: 'judge-a',
            labels: { clarity: ['lose', 'tie', 'win'][k % 3], retired: 'tie', overall: 'win' },
          })),
        ),
      ),
      'concord',
    );
    // Both orders of the same run, the swapped verdict first for some items.
    importJudge(
      lead,
      studyId,
      writeTemp(
        dir,
        'pack-judge-b.jsonl',
        jsonl(
          items.flatMap((item, k) => {
            const canonical = { item, judge: 'judge-b', labels: { clarity: 'win', overall: ['lose', 'tie', 'win'][k % 3] } };
            const swapped = { item, judge: 'judge-b', swapped: true, labels: { clarity: k % 2 ? 'win' : 'lose', overall: 'tie' } };
            return k % 2 ? [swapped, canonical] : [canonical, swapped];
          }),
        ),
      ),
      'concord',
    );
    // `retired` leaves the catalog: its labels, verdicts and rulings stay in the rows and the packs.
    setStudyCriteria(lead, studyId, catalog(['clarity', 'correctness']));
    expect(packMismatches(getDb())).toEqual([]);
    expect(getDb().$client.prepare('SELECT count(*) FROM judge_label_packs').pluck().get()).toBe(10);
    expectReadersMatchRows(studyId);
  });

  it('submissions, an undo and a new revision, adjudications and a ruling written with plain SQL', () => {
    setStudyMembers(lead, studyId, { usernames: ['r1', 'r2'], adjudicator: 'adj' });
    openStudy(lead, studyId);
    const submit = (who: Actor, pick: (criterion: string) => 'r1' | 'tie' | 'r2') => {
      const a = getJudgeAssignment(who, getQueue(who, studyId).currentId!);
      submitJudgment(who, {
        assignmentId: a.assignmentId,
        requestId: rid(),
        activeMs: 500,
        choices: Object.fromEntries(a.criteria.map((c) => [c.id, pick(c.id)])),
      });
      return a;
    };
    // r1 presses r1 everywhere, r2 presses tie on overall: every item disagrees on overall at least.
    while (getQueue(r1, studyId).currentId) submit(r1, () => 'r1');
    while (getQueue(r2, studyId).currentId) submit(r2, (c) => (c === 'overall' ? 'tie' : 'r1'));
    expect(packMismatches(getDb())).toEqual([]);
    expectReadersMatchRows(studyId);

    // Undo: the slot is pending again, its annotation stays (and stays packed) but no longer counts.
    undoLastSubmission(r2, { studyId });
    expect(packMismatches(getDb())).toEqual([]);
    expectReadersMatchRows(studyId);
    // The new submission is revision 2 of the same assignment; the newest counts.
    const again = submit(r2, () => 'tie');
    expect(
      getDb()
        .$client.prepare('SELECT max(revision) FROM annotations an JOIN assignments a ON a.id = an.assignment_id WHERE a.id = ?')
        .pluck()
        .get(again.assignmentId),
    ).toBe(2);
    expect(packMismatches(getDb())).toEqual([]);
    expectReadersMatchRows(studyId);

    // Rulings, then a second ruling on the same criterion (the newest counts), then one on the retired criterion.
    const itemId = again.itemId;
    const split = getAdjudicationItem(adj, studyId, itemId).criteria.filter((c) => !c.agreed);
    expect(split.length).toBeGreaterThan(0);
    submitAdjudication(adj, { studyId, itemId, requestId: rid(), choices: Object.fromEntries(split.map((c) => [c.id, 'tie'])) });
    getDb()
      .$client.prepare(
        "INSERT INTO adjudications (item_id, criterion, revision, label, rationale, adjudicator_id, request_id) VALUES (?, 'overall', 2, 'lose', 'second thoughts', ?, ?)",
      )
      .run(itemId, adj.id, rid());
    const p1 = getDb().$client.prepare("SELECT id FROM items WHERE study_id = ? AND external_id = 'p1'").pluck().get(studyId) as number;
    getDb()
      .$client.prepare(
        "INSERT INTO adjudications (item_id, criterion, revision, label, rationale, adjudicator_id, request_id) VALUES (?, 'retired', 1, 'tie', null, ?, ?)",
      )
      .run(p1, adj.id, rid());
    expect(packMismatches(getDb())).toEqual([]);
    expectReadersMatchRows(studyId);
    // The newest ruling decides, read from the packs as from the rows.
    const overall = [...groundTruth(getDb(), findStudy(getDb(), studyId)!)].find((r) => r.itemId === itemId && r.criterion === 'overall');
    expect(overall).toMatchObject({ label: 'lose', provenance: 'adjudicated' });
  });

  it('refuses to change or remove what the packs mirror', () => {
    const sql = getDb().$client;
    expect(() => sql.prepare("UPDATE labels SET label = 'tie'").run()).toThrow(/append-only/);
    expect(() => sql.prepare('DELETE FROM labels').run()).toThrow(/only with their annotation/);
    expect(() => sql.prepare("UPDATE judge_labels SET label = 'tie'").run()).toThrow(/append-only/);
    expect(() => sql.prepare('DELETE FROM judge_labels').run()).toThrow(/only with their run or item/);
    expect(() => sql.prepare("UPDATE adjudications SET label = 'tie'").run()).toThrow(/append-only/);
    expect(() => sql.prepare('DELETE FROM adjudications').run()).toThrow(/only with their item/);
    expect(() => sql.prepare('DELETE FROM annotation_packs').run()).toThrow(/only with its annotation/);
    expect(() => sql.prepare('DELETE FROM judge_label_packs').run()).toThrow(/only with its run or item/);
    expect(() => sql.prepare('DELETE FROM adjudication_packs').run()).toThrow(/only with its item/);
    expect(() => sql.prepare('UPDATE assignments SET slot = slot + 5').run()).toThrow(/keeps its study, item, slot and reviewer/);
    // Removing a judge run takes its verdicts and their packs with it.
    const run = sql.prepare("SELECT id FROM judge_runs WHERE name = 'judge-a'").pluck().get() as number;
    sql.prepare('DELETE FROM judge_runs WHERE id = ?').run(run);
    expect(sql.prepare('SELECT count(*) FROM judge_label_packs WHERE run_id = ?').pluck().get(run)).toBe(0);
    expect(packMismatches(getDb())).toEqual([]);
  });
});

describe('the criterion dictionary', () => {
  it('learns a code first used while a read is under way', () => {
    const sql = getDb().$client;
    const studyId = sql.prepare("SELECT id FROM studies WHERE name = 'Packs'").pluck().get() as number;
    const codes = codeMap(getDb(), studyId, ['clarity']);
    const annotation = sql.prepare('SELECT annotation_id FROM annotation_packs WHERE study_id = ? LIMIT 1').pluck().get(studyId) as number;
    sql.prepare("INSERT INTO labels (annotation_id, criterion, label) VALUES (?, 'arrived_during_read', 'win')").run(annotation);
    const code = sql
      .prepare("SELECT code FROM criterion_codes WHERE study_id = ? AND criterion = 'arrived_during_read'")
      .pluck()
      .get(studyId) as number;
    expect(codes.indexOf(code)).toBe(-1);
    expect(codes.name(code)).toBe('arrived_during_read');
    expect(
      codes.indexOf(
        sql.prepare("SELECT code FROM criterion_codes WHERE study_id = ? AND criterion = 'clarity'").pluck().get(studyId) as number,
      ),
    ).toBe(0);
  });
});

/**
 * A random pairwise study written with plain SQL, the way the benchmarks and a careless script would: items in a
 * shuffled position order, up to three reviewers with missing, revised (in any order) and pending reviews, labels
 * on criteria outside the catalog, rulings with revisions written out of order, and a judge run in both orders.
 */
function randomStudy(seed: number): number {
  const random = mulberry32(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  const sql = getDb().$client;
  const LABELS = ['lose', 'tie', 'win'] as const;
  const known = ['clarity', 'correctness', 'overall'];
  const all = [...known, 'retired', 'extra'];
  const studyId = createStudy(lead, {
    kind: 'pairwise',
    name: `Random ${seed}`,
    reviewersPerItem: 3,
    seed,
    groundTruthRule: random() < 0.5 ? 'majority' : 'adjudicated',
  }).id;
  setStudyCriteria(lead, studyId, catalog(['clarity', 'correctness']));
  const users = [r1, r2, adj, lead].map((u) => u.id);
  const nItems = 30 + Math.floor(random() * 30);
  const positions = Array.from({ length: nItems }, (_, k) => k + 1).sort(() => random() - 0.5);
  const runId = Number(
    sql
      .prepare(
        "INSERT INTO judge_runs (study_id, name, format, filename, unparsed, created_by) VALUES (?, 'random', 'concord', 'r.jsonl', '[]', ?)",
      )
      .run(studyId, lead.id).lastInsertRowid,
  );
  for (let k = 0; k < nItems; k++) {
    const itemId = Number(
      sql
        .prepare(
          'INSERT INTO items (study_id, external_id, position, payload, content_hash, source_a, source_b) VALUES (?, ?, ?, ?, ?, ?, ?)',
        )
        .run(studyId, `r${seed}-${k}`, positions[k], '{}', `h${seed}-${k}`, pick(['m1', 'm2', null]), 'ref').lastInsertRowid,
    );
    const reviewers = Math.floor(random() * 4);
    for (let slot = 1; slot <= reviewers; slot++) {
      const state = random() < 0.15 ? 'pending' : 'submitted';
      const assignmentId = Number(
        sql
          .prepare('INSERT INTO assignments (study_id, item_id, user_id, slot, queue_position, state) VALUES (?, ?, ?, ?, ?, ?)')
          .run(studyId, itemId, users[slot - 1], slot, k + 1, state).lastInsertRowid,
      );
      // Revisions 1..R, written in a random order; a pending slot may have an (undone) annotation.
      const revisions = state === 'pending' && random() < 0.5 ? 0 : 1 + Math.floor(random() * 3);
      const order = Array.from({ length: revisions }, (_, r) => r + 1).sort(() => random() - 0.5);
      for (const revision of order) {
        const annotationId = Number(
          sql
            .prepare('INSERT INTO annotations (assignment_id, revision, request_id, created_by) VALUES (?, ?, ?, ?)')
            .run(assignmentId, revision, `rand-${seed}-${assignmentId}-${revision}`, lead.id).lastInsertRowid,
        );
        for (const criterion of all) {
          if (random() < (known.includes(criterion) ? 0.85 : 0.2)) {
            sql.prepare('INSERT INTO labels (annotation_id, criterion, label) VALUES (?, ?, ?)').run(annotationId, criterion, pick(LABELS));
          }
        }
      }
    }
    for (const criterion of all) {
      const rulings = random() < 0.3 ? 1 + Math.floor(random() * 2) : 0;
      for (const revision of Array.from({ length: rulings }, (_, r) => rulings - r)) {
        sql
          .prepare('INSERT INTO adjudications (item_id, criterion, revision, label, adjudicator_id, request_id) VALUES (?, ?, ?, ?, ?, ?)')
          .run(itemId, criterion, revision, pick(LABELS), adj.id, `rule-${seed}-${itemId}-${criterion}-${revision}`);
      }
      for (const swapped of [0, 1]) {
        if (random() < 0.5) {
          sql
            .prepare('INSERT INTO judge_labels (run_id, item_id, criterion, swapped, label) VALUES (?, ?, ?, ?, ?)')
            .run(runId, itemId, criterion, swapped, pick(LABELS));
        }
      }
    }
  }
  return studyId;
}

describe('on random data written with plain SQL', () => {
  it('the pack-based readers equal a direct reading of the rows', () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const studyId = randomStudy(seed);
      expect(packMismatches(getDb())).toEqual([]);
      expectReadersMatchRows(studyId);
    }
  });

  it('notices labels, verdicts and rulings written while a trigger is missing', () => {
    const sql = getDb().$client;
    const studyId = randomStudy(99);
    // One more item, reviewed by two people who split on clarity.
    const itemId = Number(
      sql
        .prepare("INSERT INTO items (study_id, external_id, position, payload, content_hash) VALUES (?, 'late', 10000, '{}', 'late')")
        .run(studyId).lastInsertRowid,
    );
    const annotations = [r1, r2].map((who, k) => {
      const assignmentId = Number(
        sql
          .prepare("INSERT INTO assignments (study_id, item_id, user_id, slot, queue_position, state) VALUES (?, ?, ?, ?, 1, 'submitted')")
          .run(studyId, itemId, who.id, k + 1).lastInsertRowid,
      );
      const annotationId = Number(
        sql
          .prepare('INSERT INTO annotations (assignment_id, revision, request_id, created_by) VALUES (?, 1, ?, ?)')
          .run(assignmentId, `late-${k}`, who.id).lastInsertRowid,
      );
      const insert = sql.prepare('INSERT INTO labels (annotation_id, criterion, label) VALUES (?, ?, ?)');
      insert.run(annotationId, 'clarity', k ? 'lose' : 'win');
      insert.run(annotationId, 'overall', 'tie');
      return { assignmentId, annotationId };
    });
    const run = sql.prepare('SELECT id FROM judge_runs WHERE study_id = ?').pluck().get(studyId) as number;
    expect(packMismatches(getDb())).toEqual([]);
    expectReadersMatchRows(studyId);

    const revise = () => {
      const id = Number(
        sql
          .prepare("INSERT INTO annotations (assignment_id, revision, request_id, created_by) VALUES (?, 2, 'late-revision', ?)")
          .run(annotations[0].assignmentId, r1.id).lastInsertRowid,
      );
      sql.prepare("INSERT INTO labels (annotation_id, criterion, label) VALUES (?, 'clarity', 'lose'), (?, 'overall', 'tie')").run(id, id);
    };
    const writes: [trigger: string, write: () => void][] = [
      ['annotations_pack', revise],
      ['labels_pack', revise],
      [
        'judge_labels_pack',
        () =>
          sql
            .prepare("INSERT INTO judge_labels (run_id, item_id, criterion, swapped, label) VALUES (?, ?, 'clarity', 0, 'win')")
            .run(run, itemId),
      ],
      [
        'adjudications_pack',
        () =>
          sql
            .prepare(
              "INSERT INTO adjudications (item_id, criterion, revision, label, adjudicator_id, request_id) VALUES (?, 'clarity', 1, 'win', ?, 'late-ruling')",
            )
            .run(itemId, adj.id),
      ],
    ];
    for (const [trigger, write] of writes) {
      sql.exec('SAVEPOINT without_trigger');
      try {
        sql.exec(`DROP TRIGGER ${trigger}`);
        write();
        expect(packMismatches(getDb()).length, trigger).toBeGreaterThan(0);
        expect(() => expectReadersMatchRows(studyId), trigger).toThrow();
      } finally {
        sql.exec('ROLLBACK TO without_trigger');
        sql.exec('RELEASE without_trigger');
      }
    }
    // Without its code a new criterion cannot be packed, and the label is refused rather than lost.
    sql.exec('SAVEPOINT without_trigger');
    try {
      sql.exec('DROP TRIGGER labels_criterion_code');
      expect(() =>
        sql.prepare("INSERT INTO labels (annotation_id, criterion, label) VALUES (?, 'novel', 'win')").run(annotations[1].annotationId),
      ).toThrow(/NOT NULL/);
    } finally {
      sql.exec('ROLLBACK TO without_trigger');
      sql.exec('RELEASE without_trigger');
    }
    expect(packMismatches(getDb())).toEqual([]);
    expectReadersMatchRows(studyId);
  });
});
