import 'server-only';
import { getDb, type Db } from '@/db/client';
import * as q from '@/db/queries/judge-launches';
import * as examplesQ from '@/db/queries/judge-examples';
import type { StudyRow } from '@/db/queries/studies';
import { alignmentSummary, contingencyTable } from '@/lib/stats';
import { alignmentFromConfusion } from '@/lib/stats/rubric';
import type { Actor } from '../actor';
import { alignmentReport } from '../analytics/alignment';
import { Q, judgeRunNamed } from '../analytics/data';
import { studyForStaff } from '../review/access';
import type { RubricAlignmentSummaryDto } from '../analytics/dto';
import { invalid } from '../errors';
import type { JudgeComparisonDto, LeftOutDto, RubricComparisonScoresDto, RubricJudgeComparisonDto, StudyJudgeRunDto } from './dto';
import { exampleItemsOf } from './examples';
import { type Graded, gradedRun } from './graded';
import { gradingOf } from './graded-kinds';
import { listStudyJudgeRuns } from './judges';

const stat = (s: { value: number | null }) => s.value;

/**
 * Several judge runs of a pairwise study side by side (Padó's Table 1 for the study's own data): alignment with
 * ground truth overall and per criterion, Cohen's κ, position consistency, and for runs launched here their tokens
 * and estimated cost. Point estimates only (no bootstrap), so the page answers at once.
 */
export function compareJudgeRuns(actor: Actor, studyId: number, names: readonly string[]): JudgeComparisonDto {
  if (names.length > 8) throw invalid('Compare at most 8 runs at a time.');
  const runs = new Map(listStudyJudgeRuns(actor, studyId).map((r) => [r.name, r]));
  const columns = names.map((name) => {
    const listed = runs.get(name);
    if (!listed) throw invalid(`The study has no judge run "${name}".`);
    const r = alignmentReport(actor, studyId, 'alignment', { judge: name, bootstrap: 0 });
    const pc = r.positionConsistency;
    return {
      name,
      origin: listed.origin,
      model: listed.status?.model ?? null,
      template: listed.status ? `${listed.status.template.name} v${listed.status.template.version}` : null,
      n: r.overall.n,
      alignment: stat(r.overall.alignmentRate),
      alignmentNoTies: stat(r.overall.alignmentRateNoTies),
      kappa: stat(r.overall.cohenKappa),
      positionConsistency: 'n' in pc ? stat(pc.rate) : null,
      unreadable: listed.status ? listed.status.unreadable : r.unparsedVerdicts,
      tokensIn: listed.status?.tokensIn ?? null,
      tokensOut: listed.status?.tokensOut ?? null,
      cost: listed.status?.cost ?? null,
      byCriterion: Object.fromEntries(r.byCriterion.map((c) => [c.criterion, stat(c.alignmentRate)])),
      criteria: r.byCriterion.map((c) => ({ id: c.criterion, name: c.name })),
      groundTruthLabels: r.groundTruth.labels,
    };
  });
  const criteria = new Map<string, string>();
  for (const c of columns) for (const k of c.criteria) criteria.set(k.id, k.name);
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  const left = leftOutOf(
    db,
    studyId,
    names.map((n) => runs.get(n)!),
    'alignment and κ',
  );
  if (left) for (const c of columns) Object.assign(c, scoresWithout(db, study, c.name, left.itemIds));
  return {
    studyId,
    criteria: [...criteria].map(([id, name]) => ({ id, name })),
    leftOut: left?.dto ?? null,
    runs: columns.map(({ criteria: _c, ...rest }) => rest),
  };
}

/**
 * The items some compared run's template shows as worked examples (decision 0033): the judge saw their settled
 * label in its prompt, so they are left out of every compared run's alignment and κ — the runs are scored on the
 * same items, and the new version is not credited for answers it was given.
 */
function leftOutOf(db: Db, studyId: number, runs: StudyJudgeRunDto[], scores: string): { itemIds: Set<number>; dto: LeftOutDto } | null {
  const because: LeftOutDto['because'] = [];
  const said: string[] = [];
  const all = new Set<string>();
  const plural = (k: number) => (k === 1 ? '1 item is a worked example' : `${k} items are worked examples`);
  for (const r of runs) {
    if (!r.status) continue;
    const template = q.templateById(db, q.findLaunch(db, r.status.runId)!.templateId)!;
    const items = exampleItemsOf(template.body);
    if (!items.length) continue;
    items.forEach((x) => all.add(x));
    because.push({ run: r.name, template: `${template.name} v${template.version}`, items: items.length });
    said.push(`${plural(items.length)} in version ${template.version} of ${template.name} (run ${r.name})`);
  }
  if (!all.size) return null;
  const ids = examplesQ.itemIdsByExternalId(db, studyId, [...all]);
  const note = `${said.join('; ')}: ${all.size === 1 ? 'it is' : `these ${all.size} items are`} left out of every run's ${scores} here.`;
  return { itemIds: new Set(ids.values()), dto: { items: all.size, because, note } };
}

/** A run's alignment and κ, overall and per criterion, on the ground truth of every item but `left` (lib/stats'). */
function scoresWithout(db: Db, study: StudyRow, name: string, left: Set<number>) {
  const g = gradedRun(db, study, judgeRunNamed(db, study.id, name));
  const keep = g.itemIds.map((id) => !left.has(id));
  const pairs = (cs: number[]) => {
    const gold: number[] = [];
    const judge: number[] = [];
    for (const c of cs)
      for (let i = 0; i < g.n; i++) {
        const x = g.gold[c * g.n + i];
        const v = g.verdict[c * g.n + i];
        if (keep[i] && x >= 0 && v >= 0) {
          gold.push(x);
          judge.push(v);
        }
      }
    return alignmentSummary(contingencyTable(Int8Array.from(gold), Int8Array.from(judge), Q));
  };
  const overall = pairs(g.criteria.map((_, c) => c));
  return {
    n: overall.rate.total,
    alignment: overall.rate.rate.value,
    alignmentNoTies: overall.withoutTies.rate.value,
    kappa: overall.kappa.value,
    byCriterion: Object.fromEntries(g.criteria.map((c, k) => [c.id, pairs([k]).rate.rate.value])),
  };
}

const scores = (s: RubricAlignmentSummaryDto): RubricComparisonScoresDto => ({
  n: s.n,
  alignment: stat(s.alignmentRate),
  macroF1: stat(s.macroF1),
  macroF1Lenient: s.lenient ? stat(s.lenient.macroF1) : null,
  kappa: stat(s.cohenKappa),
  kappaLenient: s.lenient ? stat(s.lenient.cohenKappa) : null,
});

/**
 * Several judge runs of a rubric study side by side (Padó's Table 1 for the study's own data): per dimension and
 * pooled, macro-F1 and Cohen's κ strict and lenient, accuracy, and for runs launched here their tokens and
 * estimated cost — all read from the rubric alignment report (sample `sample` of each run), point estimates only.
 */
export function compareRubricJudgeRuns(actor: Actor, studyId: number, names: readonly string[], sample = 1): RubricJudgeComparisonDto {
  if (names.length > 8) throw invalid('Compare at most 8 runs at a time.');
  const runs = new Map(listStudyJudgeRuns(actor, studyId).map((r) => [r.name, r]));
  let dimensions: RubricJudgeComparisonDto['dimensions'] = [];
  const columns = names.map((name) => {
    const listed = runs.get(name);
    if (!listed) throw invalid(`The study has no judge run "${name}".`);
    const r = alignmentReport(actor, studyId, 'rubric-alignment', { judge: name, sample, bootstrap: 0 });
    dimensions = r.dimensions.map((d) => ({ id: d.id, name: d.name, lenient: d.lenient !== undefined }));
    return {
      name,
      origin: listed.origin,
      model: listed.status?.model ?? null,
      template: listed.status ? `${listed.status.template.name} v${listed.status.template.version}` : null,
      samples: r.samples,
      ...scores(r.overall),
      unreadable: listed.status ? listed.status.unreadable : r.unparsedVerdicts,
      tokensIn: listed.status?.tokensIn ?? null,
      tokensOut: listed.status?.tokensOut ?? null,
      cost: listed.status?.cost ?? null,
      groundTruthLabels: r.groundTruth.labels,
      byDimension: Object.fromEntries(r.byCriterion.map((c) => [c.criterion, scores(c)])),
    };
  });
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  const left = leftOutOf(
    db,
    studyId,
    names.map((n) => runs.get(n)!),
    'accuracy, macro-F1 and κ',
  );
  if (left)
    for (const c of columns)
      Object.assign(c, rubricScoresWithout(gradedRun(db, study, judgeRunNamed(db, studyId, c.name), sample), left.itemIds));
  return { studyId, sample, dimensions, leftOut: left?.dto ?? null, runs: columns };
}

const sameLabels = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, k) => x === b[k]);

/**
 * A rubric run's scores on every item but `left`, as the rubric alignment report scores them (lib/stats'
 * `alignmentFromConfusion`): per dimension, strict and — where the dimension has a lenient map — lenient; pooled over
 * the dimensions, with macro-F1 and κ only when the pooled dimensions share one label set (else null, as the report's
 * `mixed_label_sets`), and lenient only when every dimension has a map.
 */
function rubricScoresWithout(g: Graded, left: Set<number>) {
  const keep = g.itemIds.map((id) => !left.has(id));
  /** Accuracy, macro-F1 and κ of dimensions `ds`, their codes folded by the lenient map when `lenient`. */
  const score = (ds: number[], lenient: boolean) => {
    const labelsOf = (d: number) => (lenient ? g.criteria[d].lenient!.labels : g.criteria[d].labels);
    const gold: number[] = [];
    const judge: number[] = [];
    for (const d of ds) {
      const fold = lenient ? g.criteria[d].lenient!.codes : null;
      for (let i = 0; i < g.n; i++) {
        const x = g.gold[d * g.n + i];
        const v = g.verdict[d * g.n + i];
        if (!keep[i] || x < 0 || v < 0) continue;
        gold.push(fold ? fold[x] : x);
        judge.push(fold ? fold[v] : v);
      }
    }
    const labels = ds.every((d) => sameLabels(labelsOf(d), labelsOf(ds[0]))) ? labelsOf(ds[0]) : null;
    if (!labels) {
      const agree = gold.filter((x, r) => x === judge[r]).length;
      return { n: gold.length, alignment: gold.length ? agree / gold.length : null, macroF1: null, kappa: null };
    }
    const a = alignmentFromConfusion(contingencyTable(Int8Array.from(gold), Int8Array.from(judge), labels.length), labels);
    return { n: a.n, alignment: stat(a.alignmentRate), macroF1: stat(a.macroF1), kappa: stat(a.cohenKappa) };
  };
  const both = (ds: number[], hasLenient: boolean): RubricComparisonScoresDto => {
    const strict = score(ds, false);
    const lenient = hasLenient ? score(ds, true) : null;
    return { ...strict, macroF1Lenient: lenient?.macroF1 ?? null, kappaLenient: lenient?.kappa ?? null };
  };
  const all = g.criteria.map((_, d) => d);
  return {
    ...both(
      all,
      g.criteria.every((c) => c.lenient !== null),
    ),
    byDimension: Object.fromEntries(g.criteria.map((c, d) => [c.id, both([d], c.lenient !== null)])),
  };
}

/**
 * The study's judge runs side by side, as its kind grades them (the judges facet's `grading`): per criterion for a
 * pairwise study, per dimension and one sample at a time for a rubric study. The CLI's `judge compare` asks this.
 */
export function compareStudyJudgeRuns(
  actor: Actor,
  studyId: number,
  names: readonly string[],
  sample = 1,
): { kind: 'criteria'; comparison: JudgeComparisonDto } | { kind: 'dimensions'; comparison: RubricJudgeComparisonDto } {
  const study = studyForStaff(getDb(), actor, studyId);
  const grading = gradingOf(study);
  if (grading === 'criteria') return { kind: grading, comparison: compareJudgeRuns(actor, studyId, names) };
  if (grading === 'dimensions') return { kind: grading, comparison: compareRubricJudgeRuns(actor, studyId, names, sample) };
  throw invalid('Judge runs of this kind of study cannot be compared.');
}
