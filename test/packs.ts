import { expect } from 'vitest';
import { type Db, getDb } from '@/db/client';
import { judgeRuns } from '@/db/queries/analytics';
import { findStudy } from '@/db/queries/studies';
import { loadFrame, loadJudge } from '@/lib/server/analytics/data';
import { groundTruth, reviewerCodes, summarize } from '@/lib/server/ground-truth/ground-truth';
import { groundTruthRows, summarizeRows } from './ground-truth-reference';

/*
 * References for the packed labels (migration 0007), computed straight from the rows they mirror: what every pack
 * should hold, and what the pack-based readers should return. Tests compare the two on data written by every
 * write path; the references never read a pack.
 */

const LABEL_CODE: Record<string, number> = { lose: 0, tie: 1, win: 2 };

const sortChars = (s: string) => [...s].sort().join('');

/** Ends the description of an annotation before its packed labels (no packed character is below 48). */
const HEAD = '\u0001';

/**
 * Differences between the packs and the rows (an empty list when they agree): the criterion codes (one per
 * criterion labelled, judged or ruled on in a study, numbered 0..k−1), one annotation pack per annotation under
 * its assignment's study, item, slot, revision and reviewer with one character per label, one judge pack per
 * judged (run, item), one adjudication pack per adjudicated item with the newest ruling on each criterion.
 * Characters are compared as sorted lists: their order within a pack carries no meaning.
 */
export function packMismatches(db: Db): string[] {
  const sql = db.$client;
  const out: string[] = [];
  const codes = new Map<number, Map<string, number>>();
  for (const r of sql.prepare('SELECT study_id AS s, criterion AS c, code FROM criterion_codes').all() as {
    s: number;
    c: string;
    code: number;
  }[]) {
    if (!codes.has(r.s)) codes.set(r.s, new Map());
    codes.get(r.s)!.set(r.c, r.code);
  }
  for (const [study, byName] of codes) {
    const sorted = [...byName.values()].sort((a, b) => a - b);
    if (sorted.some((code, k) => code !== k)) out.push(`study ${study}: codes are not 0..${sorted.length - 1}: ${sorted.join(',')}`);
  }
  const used = sql
    .prepare(
      `SELECT a.study_id AS s, l.criterion AS c FROM labels l JOIN annotations an ON an.id = l.annotation_id JOIN assignments a ON a.id = an.assignment_id
       UNION SELECT r.study_id, j.criterion FROM judge_labels j JOIN judge_runs r ON r.id = j.run_id
       UNION SELECT i.study_id, j.criterion FROM adjudications j JOIN items i ON i.id = j.item_id`,
    )
    .all() as { s: number; c: string }[];
  const codeOf = (study: number, criterion: string) => {
    const code = codes.get(study)?.get(criterion);
    if (code === undefined) throw new Error(`no code for "${criterion}" in study ${study}`);
    return code;
  };
  for (const u of used) if (codes.get(u.s)?.get(u.c) === undefined) out.push(`study ${u.s}: "${u.c}" has no code`);
  if (out.length) return out;

  // Annotations.
  const want = new Map<number, string>();
  for (const a of sql
    .prepare(
      `SELECT an.id, a.study_id AS s, a.item_id AS i, a.slot, an.revision AS rev, a.user_id AS u
         FROM annotations an JOIN assignments a ON a.id = an.assignment_id`,
    )
    .all() as { id: number; s: number; i: number; slot: number; rev: number; u: number }[]) {
    want.set(a.id, `${a.s}/${a.i}/${a.slot}/${a.rev}/${a.u}${HEAD}`);
  }
  for (const l of sql
    .prepare(
      'SELECT l.annotation_id AS id, a.study_id AS s, l.criterion AS c, l.label FROM labels l JOIN annotations an ON an.id = l.annotation_id JOIN assignments a ON a.id = an.assignment_id',
    )
    .all() as { id: number; s: number; c: string; label: string }[]) {
    want.set(l.id, want.get(l.id)! + String.fromCharCode(48 + 3 * codeOf(l.s, l.c) + LABEL_CODE[l.label]));
  }
  const have = new Map<number, string>();
  for (const p of sql
    .prepare('SELECT annotation_id AS id, study_id AS s, item_id AS i, slot, revision AS rev, user_id AS u, packed FROM annotation_packs')
    .all() as {
    id: number;
    s: number;
    i: number;
    slot: number;
    rev: number;
    u: number;
    packed: string;
  }[]) {
    have.set(p.id, `${p.s}/${p.i}/${p.slot}/${p.rev}/${p.u}${HEAD}${p.packed}`);
  }
  compare('annotation', want, have, out);

  // Judge verdicts.
  const wantJudge = new Map<string, string>();
  for (const j of sql
    .prepare(
      'SELECT j.run_id AS run, j.item_id AS i, r.study_id AS s, j.criterion AS c, j.swapped, j.label FROM judge_labels j JOIN judge_runs r ON r.id = j.run_id',
    )
    .all() as { run: number; i: number; s: number; c: string; swapped: number; label: string }[]) {
    const key = `${j.run}/${j.i}`;
    wantJudge.set(
      key,
      (wantJudge.get(key) ?? '') + String.fromCharCode(48 + 6 * codeOf(j.s, j.c) + 3 * (j.swapped ? 1 : 0) + LABEL_CODE[j.label]),
    );
  }
  const haveJudge = new Map<string, string>();
  for (const p of sql.prepare('SELECT run_id AS run, item_id AS i, packed FROM judge_label_packs').all() as {
    run: number;
    i: number;
    packed: string;
  }[]) {
    haveJudge.set(`${p.run}/${p.i}`, p.packed);
  }
  compare('judge', wantJudge, haveJudge, out);

  // Rulings: the newest revision of each (item, criterion).
  const newest = new Map<string, { s: number; i: number; c: string; rev: number; label: string }>();
  for (const j of sql
    .prepare(
      'SELECT i.study_id AS s, j.item_id AS i, j.criterion AS c, j.revision AS rev, j.label FROM adjudications j JOIN items i ON i.id = j.item_id',
    )
    .all() as { s: number; i: number; c: string; rev: number; label: string }[]) {
    const key = `${j.i}/${j.c}`;
    if ((newest.get(key)?.rev ?? 0) < j.rev) newest.set(key, j);
  }
  const wantRuled = new Map<string, string>();
  for (const j of newest.values()) {
    const key = `${j.s}/${j.i}`;
    wantRuled.set(key, (wantRuled.get(key) ?? '') + String.fromCharCode(48 + 3 * codeOf(j.s, j.c) + LABEL_CODE[j.label]));
  }
  const haveRuled = new Map<string, string>();
  for (const p of sql.prepare('SELECT study_id AS s, item_id AS i, packed FROM adjudication_packs').all() as {
    s: number;
    i: number;
    packed: string;
  }[]) {
    haveRuled.set(`${p.s}/${p.i}`, p.packed);
  }
  compare('adjudication', wantRuled, haveRuled, out);
  return out;
}

function compare<K>(what: string, want: Map<K, string>, have: Map<K, string>, out: string[]) {
  const norm = (s: string) => {
    const head = s.indexOf(HEAD);
    return head < 0 ? sortChars(s) : s.slice(0, head + 1) + sortChars(s.slice(head + 1));
  };
  for (const [key, w] of want) {
    const h = have.get(key);
    if (h === undefined) out.push(`${what} ${String(key)}: no pack`);
    else if (norm(h) !== norm(w)) out.push(`${what} ${String(key)}: pack ${JSON.stringify(h)}, rows ${JSON.stringify(w)}`);
  }
  for (const key of have.keys()) if (!want.has(key)) out.push(`${what} ${String(key)}: a pack without rows`);
}

/**
 * The reviewers' counting labels read from `labels` (newest revision of each submitted assignment), in the shape
 * of `reviewerCodes`: codes by criterion index, item index and slot, labels on other criteria by item and name,
 * and who holds each submitted slot.
 */
export function reviewerLabelsFromRows(db: Db, studyId: number, itemIds: readonly number[], criterionIds: readonly string[]) {
  const indexOf = new Map(itemIds.map((id, i) => [id, i]));
  const given = new Map<string, number>();
  const other = new Map<string, number>();
  const holder = new Map<string, number>();
  for (const r of db.$client
    .prepare(
      `SELECT a.item_id AS itemId, a.slot, a.user_id AS userId, l.criterion, l.label
         FROM assignments a
         JOIN annotations an ON an.assignment_id = a.id AND an.revision = (SELECT max(revision) FROM annotations WHERE assignment_id = a.id)
         LEFT JOIN labels l ON l.annotation_id = an.id
        WHERE a.study_id = ? AND a.state = 'submitted'`,
    )
    .all(studyId) as { itemId: number; slot: number; userId: number; criterion: string | null; label: string | null }[]) {
    const i = indexOf.get(r.itemId)!;
    holder.set(`${i}/${r.slot}`, r.userId);
    if (r.criterion === null) continue;
    const c = criterionIds.indexOf(r.criterion);
    if (c >= 0) given.set(`${c}/${i}/${r.slot}`, LABEL_CODE[r.label!]);
    else other.set(`${i}/${r.criterion}/${r.slot}`, LABEL_CODE[r.label!]);
  }
  return { given, other, holder };
}

/** A judge run's verdicts read from `judge_labels`, in the shape of `loadJudge` (criterion-major, −1 = none). */
export function judgeCodesFromRows(db: Db, runId: number, itemIds: readonly number[], criterionIds: readonly string[]) {
  const n = itemIds.length;
  const indexOf = new Map(itemIds.map((id, i) => [id, i]));
  const original = new Int8Array(criterionIds.length * n).fill(-1);
  const swapped = new Int8Array(criterionIds.length * n).fill(-1);
  for (const r of db.$client
    .prepare('SELECT item_id AS itemId, criterion, swapped, label FROM judge_labels WHERE run_id = ?')
    .all(runId) as {
    itemId: number;
    criterion: string;
    swapped: number;
    label: string;
  }[]) {
    const c = criterionIds.indexOf(r.criterion);
    const i = indexOf.get(r.itemId);
    if (c < 0 || i === undefined) continue;
    (r.swapped ? swapped : original)[c * n + i] = LABEL_CODE[r.label];
  }
  return { original, swapped };
}

/** Expects the pack-based readers to return what direct readings of the rows give, for one study. */
export function expectReadersMatchRows(studyId: number) {
  const db = getDb();
  const study = findStudy(db, studyId)!;
  const frame = loadFrame(db, study);
  const ids = frame.items.ids;

  // The reviewers' labels, on the catalog's criteria and on the others.
  const read = reviewerCodes(db, study, frame.criterionIds, frame.items);
  const rows = reviewerLabelsFromRows(db, studyId, ids, frame.criterionIds);
  const given = new Map<string, number>();
  const holder = new Map<string, number>();
  const other = new Map<string, number>();
  for (let c = 0; c < frame.criterionIds.length; c++) {
    for (let i = 0; i < read.n; i++) {
      for (let s = 0; s < read.slots; s++) {
        const x = read.given[(c * read.n + i) * read.slots + s];
        if (x >= 0) given.set(`${c}/${i}/${s + 1}`, x);
        if (c === 0 && read.holder[i * read.slots + s]) holder.set(`${i}/${s + 1}`, read.holder[i * read.slots + s]);
      }
    }
  }
  for (const [i, byName] of read.other) {
    for (const [name, slots] of byName) slots.forEach((x, s) => x >= 0 && other.set(`${i}/${name}/${s + 1}`, x));
  }
  expect(given).toEqual(rows.given);
  expect(other).toEqual(rows.other);
  expect(holder).toEqual(rows.holder);

  // Ground truth: codes and rows against the row-by-row reference.
  expect(summarize(db, study)).toEqual(summarizeRows(db, study));
  const incomplete: string[] = [];
  const incompleteRows: string[] = [];
  expect([...groundTruth(db, study, (x) => incomplete.push(x))]).toEqual([...groundTruthRows(db, study, (x) => incompleteRows.push(x))]);
  expect(incomplete).toEqual(incompleteRows);

  // Every judge run, both orders.
  for (const run of judgeRuns(db, studyId)) {
    const codes = loadJudge(db, frame, run.id);
    const fromRows = judgeCodesFromRows(db, run.id, ids, frame.criterionIds);
    expect(codes.original).toEqual(fromRows.original);
    expect(codes.swapped).toEqual(fromRows.swapped);
  }
}
