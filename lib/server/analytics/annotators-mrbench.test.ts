import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { mrbenchItemId, mrbenchSafeId } from '@/lib/io/adapters/mrbench';
import { publicDataPath } from '@/lib/io/public-data';
import { cohenKappa } from '@/lib/stats/agreement';
import { wilsonInterval } from '@/lib/stats/intervals';
import { MRBENCH_V3_CATALOG } from '@/lib/validation/rubric-catalogs';
import { makeUser, useTestDatabase } from '@/test/db';
import { DEMO_SLICE_DIALOGUES, RUBRIC_DEMO_STUDIES, demoLabel } from '../demo/rubric-demo';
import { setItemGold } from '../review/gold';
import { cliActor } from '../system/system';
import { annotatorsReport } from './annotators';

/*
 * The annotator quality report on the real MRBench demo study (issue 27): its accuracy against the ground truth and
 * its accuracy on gold equal the figures recomputed here from the dataset file alone with lib/stats — MRBench's
 * published labels (the prior reviewer `mrbench-gold`) and the demo annotators' labels as the seed makes them from
 * those (`demoLabel`, on the replies of the first dialogues). Under the study's rule (agreed or adjudicated, no
 * rulings yet) an annotator's reference on a reply is the other two reviewers' label where they agree.
 */
useTestDatabase();
const lead = cliActor();
const REVIEWERS = ['mrbench-gold', 'ann1', 'ann2'] as const;
type Reply = { id: string; group: string; gold: Record<string, number> };

/** The dev set's replies of the demo's slice, in file order, with their published label codes per dimension. */
function sliceFromFile(): Reply[] {
  const records = JSON.parse(fs.readFileSync(publicDataPath('mrbench', 'mrbench_v3_devset.json'), 'utf8')) as {
    conversation_id: string | number;
    tutor_responses: Record<string, { annotation: Record<string, string> }>;
  }[];
  const groups: string[] = [];
  const out: Reply[] = [];
  for (const r of records) {
    const group = mrbenchSafeId(String(r.conversation_id));
    if (!groups.includes(group)) groups.push(group);
    if (groups.indexOf(group) >= DEMO_SLICE_DIALOGUES) break;
    for (const [tutor, reply] of Object.entries(r.tutor_responses)) {
      const gold: Record<string, number> = {};
      for (const [field, value] of Object.entries(reply.annotation)) {
        const d = MRBENCH_V3_CATALOG.find((x) => x.id === field.toLowerCase());
        if (d && d.labels.includes(value)) gold[d.id] = d.labels.indexOf(value);
      }
      out.push({ id: mrbenchItemId(String(r.conversation_id), tutor), group, gold });
    }
  }
  return out;
}

/** A reviewer's label code on a reply and dimension: the published one, or the demo annotator's made from it. */
const labelOf = (who: string, reply: Reply, dim: string) => {
  const g = reply.gold[dim];
  const d = MRBENCH_V3_CATALOG.find((x) => x.id === dim)!;
  return who === 'mrbench-gold' ? g : demoLabel(who, reply.id, dim, g, d.labels.length);
};

let studyId: number;
let slice: Reply[];
beforeAll(async () => {
  for (const u of ['ann1', 'ann2', 'adj']) await makeUser(u);
  RUBRIC_DEMO_STUDIES.find((s) => s.name === 'MRBench V3 dev set')!.make(
    lead,
    () => {},
    () => {},
  );
  studyId = getDb().$client.prepare("SELECT id FROM studies WHERE name = 'MRBench V3 dev set'").pluck().get() as number;
  slice = sliceFromFile();
}, 120_000);

describe('the annotator report on the MRBench demo study', () => {
  it('gives each reviewer the accuracy and κ against the ground truth recomputed from the dataset file', () => {
    const report = annotatorsReport(lead, studyId);
    let compared = 0;
    for (const who of REVIEWERS) {
      for (const d of MRBENCH_V3_CATALOG) {
        const others = REVIEWERS.filter((o) => o !== who);
        // The others' agreed label is the reference; where they differ the rule leaves the reply to the adjudicator.
        const pairs = slice
          .filter((r) => r.gold[d.id] !== undefined)
          .flatMap((r) => {
            const [a, b] = others.map((o) => labelOf(o, r, d.id));
            return a === b ? [[labelOf(who, r, d.id), a] as const] : [];
          });
        const k = pairs.filter(([own, ref]) => own === ref).length;
        const table = d.labels.map((_, x) => d.labels.map((__, y) => pairs.filter(([own, ref]) => own === x && ref === y).length));
        const row = report.rows.find((r) => r.username === who && r.unit === d.id)!;
        const ci = wilsonInterval(k, pairs.length);
        expect([row.accuracy.n, row.accuracy.k], `${who} ${d.id}`).toEqual([pairs.length, k]);
        expect(row.accuracy.rate.value).toBe(k / pairs.length);
        // The same Wilson interval, up to the last bit of the floating-point sum.
        expect(Math.abs(row.accuracy.interval.lower! - ci.lower!)).toBeLessThan(1e-12);
        expect(Math.abs(row.accuracy.interval.upper! - ci.upper!)).toBeLessThan(1e-12);
        expect(row.kappa.value).toBe(cohenKappa(table).value);
        expect(row.kappaN).toBe(pairs.length);
        compared += pairs.length;
      }
    }
    // 167 replies × 4 dimensions for each of the three reviewers, less those where the other two differ.
    expect(compared).toBeGreaterThan(3 * 167 * 4 * 0.6);
  }, 120_000);

  it('gives each reviewer the accuracy on gold recomputed from the dataset file once replies are marked gold', () => {
    // The replies of the slice's first five dialogues become gold, with MRBench's published labels as answers.
    const groups = [...new Set(slice.map((r) => r.group))].slice(0, 5);
    const gold = slice.filter((r) => groups.includes(r.group));
    const itemIdOf = (ext: string) =>
      getDb().$client.prepare('SELECT id FROM items WHERE study_id = ? AND external_id = ?').pluck().get(studyId, ext) as number;
    for (const r of gold) {
      const labels = Object.fromEntries(
        Object.entries(r.gold).map(([dim, c]) => [dim, MRBENCH_V3_CATALOG.find((x) => x.id === dim)!.labels[c]]),
      );
      setItemGold(lead, studyId, { itemId: itemIdOf(r.id), labels });
    }
    const report = annotatorsReport(lead, studyId);
    for (const who of REVIEWERS) {
      const units = gold.flatMap((r) => Object.keys(r.gold).map((dim) => labelOf(who, r, dim) === r.gold[dim]));
      const k = units.filter(Boolean).length;
      const ci = wilsonInterval(k, units.length);
      const a = report.annotators.find((x) => x.username === who)!;
      expect([a.gold.n, a.gold.k], who).toEqual([units.length, k]);
      expect(a.gold.rate.value).toBe(k / units.length);
      expect(Math.abs(a.gold.interval.lower! - ci.lower!)).toBeLessThan(1e-12);
      expect(Math.abs(a.gold.interval.upper! - ci.upper!)).toBeLessThan(1e-12);
    }
    // The published labels answer their own gold perfectly; the seed's annotators change 15 % of theirs.
    expect(report.annotators.find((x) => x.username === 'mrbench-gold')!.gold.rate.value).toBe(1);
    expect(report.annotators.find((x) => x.username === 'ann1')!.gold.rate.value).toBeLessThan(1);
  }, 120_000);
});
