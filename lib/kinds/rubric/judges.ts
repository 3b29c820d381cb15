/*
 * A rubric study's part of running judges (the cores are in lib/server/judges): each dimension of the catalog is
 * judged on the one reply (`{{reply}}`, no order to swap), an answer is read against the dimension's labels, and
 * every sample is kept, as codes of the catalog.
 */
import type { StudyRow } from '@/db/queries/studies';
import * as q from '@/db/queries/judge-launches';
import { rubricCatalogSchema, type RubricCatalog, type RubricItem } from '@/lib/validation/rubric';
import type { JudgesFacet } from '../facets/judges';
import { RUBRIC_JUDGE_RULES } from './judge-rules';

const catalogs = new WeakMap<StudyRow, RubricCatalog>();
/** A rubric study's dimensions, in catalog order (their index is the code stored with a verdict), parsed once per row. */
export function rubricDimensions(study: StudyRow): RubricCatalog {
  let c = catalogs.get(study);
  if (!c) catalogs.set(study, (c = rubricCatalogSchema.parse(study.criteria)));
  return c;
}

export const rubricJudges: JudgesFacet = {
  judgedOn: (study) =>
    rubricDimensions(study).map((d) => ({ id: d.id, name: d.name, description: d.description ?? '', aspects: [], labels: d.labels })),
  labelsOf: (study, criterion) => rubricDimensions(study).find((d) => d.id === criterion)?.labels ?? [],
  prompt(item) {
    const it = item as RubricItem;
    return { problem: it.problem ?? '', history: it.history ?? [], reply: it.reply?.text ?? '' };
  },
  stored: (read) => read,
  storeVerdicts(db, study, runId, r, verdicts) {
    const dims = rubricDimensions(study);
    for (const [dimension, label] of Object.entries(verdicts)) {
      const d = dims.findIndex((x) => x.id === dimension);
      q.insertRubricVerdict(db, runId, r.itemId, d, r.sample, dims[d].labels.indexOf(label));
    }
  },
  rules: RUBRIC_JUDGE_RULES,
  grading: 'dimensions',
};
