import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { publicDataDir } from '@/lib/io/public-data';
import { parseCsv } from '@/test/csv';
import { makeUser, useTestDatabase } from '@/test/db';
import type { Actor } from '../actor';
import { importItems } from '../imports/imports';
import { importAnnotations } from '../imports/prior-annotations';
import { createStudy } from '../studies/studies';
import { exportGroundTruth } from './ground-truth';

/*
 * The rubric ground truth checked against the data rather than against itself: the MRBench V3 dev set with its gold
 * labels as the one reviewer, exported, and the counts per tutor, dimension and label compared with a direct count
 * of the published file.
 */

useTestDatabase();
const FILE = path.join(publicDataDir(), 'mrbench', 'mrbench_v3_devset.json');
const FIELDS: Record<string, string> = {
  Mistake_Identification: 'mistake_identification',
  Mistake_Location: 'mistake_location',
  Providing_Guidance: 'providing_guidance',
  Actionability: 'actionability',
};
let lead: Actor;
let studyId: number;

/** tutor → dimension → label → count, straight from the published JSON. */
function countsFromFile() {
  const data = JSON.parse(fs.readFileSync(FILE, 'utf8')) as { tutor_responses: Record<string, { annotation: Record<string, string> }> }[];
  const out = new Map<string, number>();
  let replies = 0;
  for (const dialogue of data) {
    for (const [tutor, r] of Object.entries(dialogue.tutor_responses)) {
      replies++;
      for (const [field, label] of Object.entries(r.annotation)) {
        const key = `${tutor}|${FIELDS[field]}|${label}`;
        out.set(key, (out.get(key) ?? 0) + 1);
      }
    }
  }
  return { counts: out, replies };
}

beforeAll(async () => {
  lead = await makeUser('gtlead', 'lead');
  studyId = createStudy(lead, { kind: 'rubric', name: 'MRBench V3 gold', dimensions: 'mrbench-v3', reviewersPerItem: 1 }).id;
  importItems(lead, studyId, FILE, 'mrbench');
  importAnnotations(lead, studyId, FILE, 'mrbench');
});

describe('rubric ground truth on the MRBench V3 dev set', () => {
  it('exports one agreed row per reply and dimension whose labels per tutor match the published file', () => {
    const { counts, replies } = countsFromFile();
    const started = performance.now();
    const out = exportGroundTruth(lead, studyId, 'jsonl');
    const rows = [...out.lines].map(
      (l) =>
        JSON.parse(l) as {
          source: string;
          dimension: string;
          label: string;
          lenient_label: string;
          provenance: string;
          reviewers: string[];
        },
    );
    const ms = performance.now() - started;
    console.log(`MRBench V3 gold: ${rows.length} ground-truth rows exported as JSONL in ${ms.toFixed(0)} ms`);
    expect(out.summary).toMatchObject({ items: replies, complete: replies, incomplete: 0, labels: replies * 4, adjudicated: 0 });
    expect(rows).toHaveLength(replies * 4);
    expect(rows.every((r) => r.provenance === 'agreed' && r.reviewers.length === 1 && r.reviewers[0] === r.label)).toBe(true);
    const exported = new Map<string, number>();
    for (const r of rows)
      exported.set(`${r.source}|${r.dimension}|${r.label}`, (exported.get(`${r.source}|${r.dimension}|${r.label}`) ?? 0) + 1);
    expect(exported).toEqual(counts);
    // Lenient: "To some extent" counts as "Yes"; "No" stays.
    for (const r of rows) expect(r.lenient_label).toBe(r.label === 'No' ? 'No' : 'Yes');
  });

  it('writes the same rows as CSV, one column per planned reviewer', () => {
    const csv = parseCsv([...exportGroundTruth(lead, studyId, 'csv').lines].join(''));
    expect(csv[0]).toEqual([
      'item',
      'group',
      'source',
      'dimension',
      'label',
      'lenient_label',
      'provenance',
      'reviewer1_label',
      'adjudicator',
      'rationale',
    ]);
    const jsonl = [...exportGroundTruth(lead, studyId, 'jsonl').lines].map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(csv.slice(1).map((r) => [r[0], r[3], r[4], r[5]])).toEqual(jsonl.map((r) => [r.item, r.dimension, r.label, r.lenient_label]));
  });
});
