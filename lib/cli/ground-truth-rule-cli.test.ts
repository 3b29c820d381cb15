import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '@/lib/server/actor';
import { mace } from '@/lib/stats/mace';
import { makeUser, useTestDatabase } from '@/test/db';
import { buildRubricStudy } from '@/test/rubric-fixtures-reports';

/*
 * `concord study set --ground-truth mace` on a rubric study with four raters per item although two are planned,
 * then `concord export ground-truth`, as real processes on the test's database (decision 0028).
 */
useTestDatabase();
let studyId: number;

function concord(args: string[]) {
  const r = spawnSync(process.execPath, ['lib/cli/bin.mjs', ...args], { env: process.env, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const LABELS = ['No', 'To some extent', 'Yes'];
const ITEMS = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6'];
const RATERS = ['ann1', 'ann2', 'ann3', 'ann4'];
/** Rater j's label code on item i: ann4 answers "Yes" whatever; the others mostly follow i % 3. */
const code = (i: number, j: number) => (j === 3 ? 2 : j === 2 && i === 1 ? 0 : i % 3);

beforeAll(async () => {
  const lead: Actor = await makeUser('lead', 'lead');
  studyId = buildRubricStudy(lead, {
    name: 'CLI models',
    catalog: [{ id: 'mi', name: 'Notices the mistake', labels: LABELS, desired: 'Yes' }],
    reviewersPerItem: 2,
    items: ITEMS.map((id) => ({ id, source: 'tutor-a' })),
    annotations: ITEMS.flatMap((item, i) => RATERS.map((annotator, j) => ({ item, annotator, labels: { mi: LABELS[code(i, j)] } }))),
    judges: [],
  });
}, 30_000);

describe('concord and the MACE ground-truth rule', () => {
  it('sets the rule and exports the MACE label, provenance and posterior of every item', () => {
    const set = concord(['study', 'set', String(studyId), '--ground-truth', 'mace']);
    expect(set.err).toBe('');
    expect(set.out).toBe(`Study ${studyId}: ground truth by mace.\n`);
    const out = concord(['export', 'ground-truth', '--study', String(studyId), '--format', 'jsonl']);
    expect(out.code).toBe(0);
    const rows = out.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { item: string; label: string; provenance: string; posterior: number; reviewers: string[] });
    const fit = mace({
      labels: [0, 1, 2],
      annotators: RATERS,
      items: ITEMS,
      annotations: ITEMS.flatMap((item, i) => RATERS.map((a, j) => [item, a, code(i, j)] as const)),
    });
    expect(rows.map((r) => [r.item, r.label, r.provenance, r.reviewers.length])).toEqual(
      ITEMS.map((item, i) => [item, LABELS[fit.labels[i]], 'mace', 4]),
    );
    rows.forEach((r, i) => expect(Math.abs(r.posterior - fit.posteriors[i][fit.labels[i]])).toBeLessThan(1e-12));
  });

  it('refuses a rule it does not know, naming the four', () => {
    const r = concord(['study', 'set', String(studyId), '--ground-truth', 'vote']);
    expect(r.code).not.toBe(0);
    expect(r.err).toContain('Choose adjudicated, majority, dawid_skene or mace.');
  });
});
