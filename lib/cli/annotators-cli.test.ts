import { beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '@/lib/server/actor';
import { reportForRequest } from '@/lib/server/analytics/report-process';
import { runInBatch } from '@/test/cli-batch';
import { makeUser, useTestDatabase } from '@/test/db';
import { buildRubricStudy } from '@/test/rubric-fixtures-reports';

/*
 * `concord report annotators` and `concord annotator exclude|include`, run by a real CLI process on the test's database,
 * on a rubric study: ann1 and ann2 give the gold labels, ann3 says Yes every time. Under the study's rule (agreed,
 * else adjudicated) ann3's Yes on a2, a3 and b3 leaves those items open; excluded, ann3 no longer holds them back.
 */
useTestDatabase();
let studyId: number;
let lead: Actor;

/** One `concord batch` process for the file (test/cli-batch.ts): each command runs as it would alone. */
function concord(args: string[]) {
  const r = runInBatch(process.env, args);
  return { code: r.code, out: r.stdout, err: r.stderr };
}

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  const items = ['a1', 'a2', 'a3', 'b1', 'b2', 'b3'];
  const gold: Record<string, string> = { a1: 'Yes', a2: 'No', a3: 'To some extent', b1: 'Yes', b2: 'Yes', b3: 'No' };
  studyId = buildRubricStudy(lead, {
    name: 'CLI annotators',
    catalog: [{ id: 'mi', name: 'Notices the mistake', labels: ['No', 'To some extent', 'Yes'], desired: 'Yes' }],
    reviewersPerItem: 3,
    items: items.map((id) => ({ id, source: 'tutor-a' })),
    annotations: items.flatMap((item) => [
      { item, annotator: 'ann1', labels: { mi: gold[item] } },
      { item, annotator: 'ann2', labels: { mi: gold[item] } },
      { item, annotator: 'ann3', labels: { mi: 'Yes' } },
    ]),
    judges: [],
  });
}, 30_000);

const groundTruthItems = () =>
  concord(['export', 'ground-truth', '--study', String(studyId), '--format', 'jsonl'])
    .out.trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l).item as string);

describe('concord report annotators and annotator exclude|include', () => {
  it('report annotators --json: each annotator per dimension, the straight-liner as such', () => {
    const r = concord(['report', 'annotators', '--study', String(studyId), '--json']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out);
    expect(json).toMatchObject({ kind: 'rubric', excluded: { labels: 0, annotators: [] } });
    expect(json.rows.map((x: { unit: string; username: string }) => `${x.unit}:${x.username}`)).toEqual(['mi:ann1', 'mi:ann2', 'mi:ann3']);
    const ann3 = json.rows[2];
    expect(ann3).toMatchObject({ items: 6, mostUsedLabel: 'Yes', mostUsedShare: 1, longestRun: 6, firstShown: null });
    // Without ann3, ann1 and ann2 agree on every item: ann3 matches the three Yes items of six. Without ann1, ann2
    // and ann3 agree only on the three Yes items (the others are open), where ann1 agrees too.
    expect(ann3.accuracy).toMatchObject({ n: 6, k: 3, rate: 0.5 });
    expect(json.rows[0].accuracy).toMatchObject({ n: 3, k: 3, rate: 1 });
    expect(ann3.loo).toMatchObject({ n: 6, k: 3, rate: 0.5 });
  });

  it('annotator exclude takes the labels out of the export and the reports; include brings them back', () => {
    expect(groundTruthItems()).toEqual(['a1', 'b1', 'b2']);
    const ex = concord(['annotator', 'exclude', '--study', String(studyId), '--user', 'ann3', '--json']);
    expect(ex.err).toBe('');
    expect(JSON.parse(ex.out)).toMatchObject({ labels: 6, annotators: [{ username: 'ann3', labels: 6, excludedBy: expect.any(String) }] });
    expect(groundTruthItems()).toEqual(['a1', 'a2', 'a3', 'b1', 'b2', 'b3']);
    const report = JSON.parse(concord(['report', 'annotators', '--study', String(studyId), '--json']).out);
    expect(report.excluded).toMatchObject({ labels: 6, annotators: [{ username: 'ann3' }] });
    expect(report.rows[2]).toMatchObject({ username: 'ann3', excluded: true, maceCompetence: null, maceCompetenceReason: 'excluded' });
    const text = concord(['report', 'agreement', '--study', String(studyId), '--bootstrap', '0']).out;
    expect(text).toContain('Left out: 6 label(s) of excluded annotator(s) ann3 (6).');

    const inc = concord(['annotator', 'include', '--study', String(studyId), '--user', 'ann3']);
    expect(inc.out).toBe('No annotator is excluded; every label counts.\n');
    expect(groundTruthItems()).toEqual(['a1', 'b1', 'b2']);
  });

  it('is served to the web server for a rubric study too, computed in a process of its own', async () => {
    const report = await reportForRequest(lead, studyId, 'annotators', {});
    expect(report.rows.map((r) => r.username)).toEqual(['ann1', 'ann2', 'ann3']);
    expect(report.excluded).toEqual({ labels: 0, annotators: [] });
  }, 60_000);

  it('refuses an unknown annotator in words', () => {
    const r = concord(['annotator', 'exclude', '--study', String(studyId), '--user', 'nobody']);
    expect(r.code).not.toBe(0);
    expect(r.err).toContain('That annotator in this study was not found.');
  });
});
