import { writeTemp } from '@/test/db';
import type { Actor } from '@/lib/server/actor';
import { importItems } from '@/lib/server/imports/imports';
import { importJudge } from '@/lib/server/imports/judge-import';
import { importAnnotations } from '@/lib/server/imports/prior-annotations';
import { createStudy, setStudyCriteria } from '@/lib/server/studies/studies';

/*
 * Builds small pairwise studies for the analytics service tests the way a lead would: JSONL files written to the
 * test's temp folder and brought in through the real importers (items, prior annotations, judge runs).
 */

type L = 'lose' | 'tie' | 'win';
const LETTER: Record<string, L> = { L: 'lose', T: 'tie', W: 'win' };

/** Labels written compactly, criterion by criterion in `criteria` order: 'WTL' → { c1: win, c2: tie, c3: lose }. */
export function labels(criteria: readonly string[], letters: string): Record<string, L> {
  if (letters.length !== criteria.length) throw new Error(`"${letters}" does not give one label per criterion`);
  const out: Record<string, L> = {};
  criteria.forEach((c, k) => {
    if (letters[k] !== '-') out[c] = LETTER[letters[k]];
  });
  return out;
}

export type StudySpec = {
  name: string;
  reviewersPerItem: number;
  groundTruthRule?: 'adjudicated' | 'majority';
  /** The criteria catalog; `[]` leaves only `overall`. */
  catalog: unknown[];
  items: { id: string; model: string }[];
  annotations: { item: string; annotator: string; labels: Record<string, L> }[];
  judges: { name: string; lines: { item: string; labels: Record<string, L>; swapped?: boolean }[] }[];
};

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

export function buildStudy(lead: Actor, dir: string, spec: StudySpec): number {
  const id = createStudy(lead, {
    kind: 'pairwise',
    name: spec.name,
    reviewersPerItem: spec.reviewersPerItem,
    groundTruthRule: spec.groundTruthRule ?? 'adjudicated',
    seed: 4242,
  }).id;
  setStudyCriteria(lead, id, spec.catalog);
  const tag = spec.name.replace(/\W+/g, '-');
  importItems(
    lead,
    id,
    writeTemp(
      dir,
      `${tag}-items.jsonl`,
      jsonl(
        spec.items.map((it) => ({
          id: it.id,
          problem: `Problem of ${it.id}`,
          a: { source: it.model, text: `Reply of ${it.model} to ${it.id}` },
          b: { source: 'reference', text: `Reference reply to ${it.id}` },
        })),
      ),
    ),
    'concord',
  );
  if (spec.annotations.length) importAnnotations(lead, id, writeTemp(dir, `${tag}-annotations.jsonl`, jsonl(spec.annotations)));
  for (const j of spec.judges) {
    const file = writeTemp(
      dir,
      `${tag}-${j.name}.jsonl`,
      jsonl(j.lines.map((l) => ({ item: l.item, judge: j.name, labels: l.labels, swapped: l.swapped ?? false }))),
    );
    importJudge(lead, id, file, 'concord');
  }
  return id;
}

export { codeOf } from '@/test/errors';
