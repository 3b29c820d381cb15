import 'server-only';
import { type Db, getDb, inTransaction } from '@/db/client';
import * as aq from '@/db/queries/analytics';
import * as judgeRunsQ from '@/db/queries/judge-runs';
import * as importsQ from '@/db/queries/imports';
import type { StudyRow } from '@/db/queries/studies';
import type { JudgeRunRecipe } from '@/db/schema';
import {
  type CombineRule,
  type CombinedLabel,
  type LabelScale,
  type MissingPolicy,
  PAIRWISE_SCALE,
  combineVerdicts,
} from '@/lib/stats/combine';
import { studyKind } from '@/lib/kinds/registry';
import type { StudyKind } from '@/lib/validation/labels';
import { combineRunsSchema } from '@/lib/validation/judges';
import { rubricCatalogSchema } from '@/lib/validation/rubric';
import { audit } from '../accounts/audit';
import type { Actor } from '../actor';
import { LABEL_SET, loadFrame, loadJudge } from '../analytics/data';
import { conflict, invalid } from '../errors';
import { parseInput } from '../parse';
import { studyForStaff } from '../review/access';
import type { CombinedRunDto } from './dto';

/**
 * Combines judge runs of a study into a new run (DESIGN "Combined judges"), stored like an imported run — its
 * verdicts in `judge_labels`, so every dashboard reads it — with its recipe: the rule, the source runs and what was
 * left unjudged (a tied majority, a missing verdict), counted. Pairwise: each source run contributes the verdict
 * that counts on the dashboards (the one given in the canonical order, else the swapped one), the combined verdicts
 * are in the canonical order, and only `majority` applies (pairwise labels have no desired label). Rubric: every
 * sample is a verdict, combined over each dimension's label order (`all`, `any`, `majority`).
 * All or nothing: the run and its verdicts are written in one transaction, and a second call with the same name
 * (a double click) is refused. Leads and admins only.
 */
export function combineJudgeRuns(actor: Actor, studyId: number, input: unknown): CombinedRunDto {
  const { runs: names, rule, name, missing } = parseInput(combineRunsSchema, input);
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  const judges = studyKind(study.kind).judges;
  const combine = COMBINE[study.kind];
  if (!judges || !combine) throw invalid(`A ${study.kind.replace('_', ' ')} study has no judge runs to combine.`);
  const runs = names.map((n) => {
    const run = aq.findJudgeRun(db, studyId, n);
    if (!run) {
      const known = aq.judgeRuns(db, studyId).map((r) => r.name);
      throw invalid(`This study has no judge run named "${n}"${known.length ? `; its runs are ${known.join(', ')}` : ''}.`, { runs: n });
    }
    return run;
  });
  if (judgeRunsQ.judgeRunExists(db, studyId, name))
    throw conflict(`A judge run named "${name}" already exists in this study; choose another name.`);
  // What the kind's labels allow (the combine form offers the same, from the same rules).
  const allowed = judges.rules.combine;
  if (!allowed.rules.includes(rule)) throw invalid(allowed.refusedRule!(rule), { rule: `use ${allowed.rules.join(' or ')}` });
  if (runs.length < allowed.minimumRuns) throw invalid(allowed.tooFewRuns, { runs: 'two or more' });
  const combined = combine(db, study, runs, rule, missing);
  if (combined.counts.pairs === 0) throw invalid('The runs have no verdicts on this study’s items; there is nothing to combine.');

  const recipe: JudgeRunRecipe = { rule, runs: runs.map((r) => r.name), missing, counts: combined.counts };
  inTransaction(db, () => {
    // Checked again inside the write lock: two requests with the same name cannot both pass.
    if (judgeRunsQ.judgeRunExists(db, studyId, name))
      throw conflict(`A judge run named "${name}" already exists in this study; choose another name.`);
    const runId = judgeRunsQ.insertCombinedJudgeRun(db, { studyId, name, recipe: JSON.stringify(recipe), createdBy: actor.id });
    combined.write(runId);
    audit(db, { userId: actor.id, action: 'judge_runs_combined', studyId, objectId: runId, detail: { name, ...recipe } });
  });
  return { studyId, run: name, recipe };
}

type Counts = JudgeRunRecipe['counts'];
type Run = { id: number; name: string };
/** What a combination gives before anything is written: its counts, and how to write its verdicts under a run. */
type Combined = { counts: Counts; write: (runId: number) => void };

function tally(counts: Counts, c: CombinedLabel) {
  counts.pairs++;
  if (c.label !== null) counts.combined++;
  else if (c.reason === 'tie') counts.tie++;
  else counts.missing++;
}

/**
 * Pairwise runs, one verdict per run and (item, criterion): the one the dashboards count. Pairwise labels have no
 * desired label, so only `majority` applies.
 */
function combinePairwise(db: Db, study: StudyRow, runs: Run[], rule: CombineRule, missing: MissingPolicy): Combined {
  const frame = loadFrame(db, study);
  const { n } = frame;
  const codes = runs.map((r) => loadJudge(db, frame, r.id).verdict);
  const R = runs.length;
  // The combined label of every combination of codes (−1 = no verdict), computed once: 4^R combinations at most.
  const memo = new Map<number, CombinedLabel>();
  const labels = new Array<string | null>(R);
  const verdicts: [number, string, string][] = [];
  const counts: Counts = { pairs: 0, combined: 0, tie: 0, missing: 0 };
  frame.criteria.forEach((criterion, c) => {
    for (let i = 0; i < n; i++) {
      let key = 0;
      let any = false;
      for (let r = 0; r < R; r++) {
        const code = codes[r][c * n + i];
        if (code >= 0) any = true;
        key = key * 4 + code + 1;
      }
      if (!any) continue;
      let combined = memo.get(key);
      if (!combined) {
        for (let r = 0; r < R; r++) {
          const code = codes[r][c * n + i];
          labels[r] = code >= 0 ? LABEL_SET[code] : null;
        }
        combined = combineVerdicts(labels, PAIRWISE_SCALE, rule, { missing });
        memo.set(key, combined);
      }
      tally(counts, combined);
      if (combined.label !== null) verdicts.push([frame.items.ids[i], criterion.id, combined.label]);
    }
  });
  return {
    counts,
    write: (runId) => {
      for (const [itemId, criterion, label] of verdicts) judgeRunsQ.insertJudgeLabel(db, runId, [itemId, criterion, 0, label, null]);
    },
  };
}

/**
 * Rubric runs: every sample of every run is one verdict on an (item, dimension), combined over the dimension's
 * label order with its desired label; a run without any sample for the pair is a missing verdict. One run with
 * several samples combines its samples.
 */
function combineRubric(db: Db, study: StudyRow, runs: Run[], rule: CombineRule, missing: MissingPolicy): Combined {
  const catalog = rubricCatalogSchema.parse(study.criteria);
  const scales: LabelScale[] = catalog.map((d) => ({ labels: d.labels, desired: d.desired }));
  const R = runs.length;
  const D = catalog.length;
  // (item, dimension) → label codes per run, every sample.
  const pairs = new Map<number, number[][]>();
  let samples = 0;
  runs.forEach((run, r) => {
    for (const [itemId, dimension, sample, label] of judgeRunsQ.rubricJudgeVerdicts(db, run.id)) {
      if (dimension >= D) continue;
      const key = itemId * D + dimension;
      let byRun = pairs.get(key);
      if (!byRun) pairs.set(key, (byRun = Array.from({ length: R }, () => [])));
      byRun[r].push(label);
      if (sample > samples) samples = sample;
    }
  });
  if (R < 2 && samples < 2) {
    throw invalid(`"${runs[0].name}" has one sample per item and dimension; choose at least two runs, or a run with several samples.`, {
      runs: 'two or more',
    });
  }
  const counts: Counts = { pairs: 0, combined: 0, tie: 0, missing: 0 };
  const verdicts: [number, number, number][] = [];
  const keys = [...pairs.keys()].sort((x, y) => x - y);
  for (const key of keys) {
    const dimension = key % D;
    const itemId = (key - dimension) / D;
    const scale = scales[dimension];
    const labels: (string | null)[] = [];
    for (const codes of pairs.get(key)!) {
      if (!codes.length) labels.push(null);
      for (const code of codes) labels.push(scale.labels[code]);
    }
    const combined = combineVerdicts(labels, scale, rule, { missing });
    tally(counts, combined);
    if (combined.label !== null) verdicts.push([itemId, dimension, scale.labels.indexOf(combined.label)]);
  }
  return {
    counts,
    write: (runId) => {
      for (const [itemId, dimension, label] of verdicts) importsQ.insertRubricJudgeLabel(db, runId, [itemId, dimension, 1, label, null]);
    },
  };
}

/**
 * How each kind's runs are combined, null for a kind without judges. Here and not in the kind's judges facet: a
 * pairwise combination reads the analytics frame (verdicts that count on the dashboards), a use-case of lib/server
 * that lib/kinds may not import; a rubric one reads its codes.
 */
const COMBINE: Record<StudyKind, typeof combinePairwise | null> = {
  flow_review: null,
  pairwise: combinePairwise,
  rubric: combineRubric,
};
