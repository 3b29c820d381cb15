import 'server-only';
import { getDb, type Db } from '@/db/client';
import * as q from '@/db/queries/judge-launches';
import * as examplesQ from '@/db/queries/judge-examples';
import type { Actor } from '../actor';
import { alignmentReport } from '../analytics/alignment';
import { studyForStaff } from '../review/access';
import type { RubricAlignmentSummaryDto } from '../analytics/dto';
import { invalid } from '../errors';
import type { JudgeComparisonDto, LeftOutDto, RubricComparisonScoresDto, RubricJudgeComparisonDto, StudyJudgeRunDto } from './dto';
import { exampleItemsOf } from './examples';
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
  const left = leftOutOf(
    getDb(),
    studyId,
    names.map((n) => runs.get(n)!),
    'alignment and κ',
  );
  if (left) for (const c of columns) Object.assign(c, scoresWithout(actor, studyId, c.name, left.itemIds));
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

/** A run's alignment and κ, overall and per criterion, on the ground truth of every item but `left`, as the alignment report scores them. */
function scoresWithout(actor: Actor, studyId: number, name: string, left: Set<number>) {
  const r = alignmentReport(actor, studyId, 'alignment', { judge: name, bootstrap: 0 }, left);
  return {
    n: r.overall.n,
    alignment: stat(r.overall.alignmentRate),
    alignmentNoTies: stat(r.overall.alignmentRateNoTies),
    kappa: stat(r.overall.cohenKappa),
    byCriterion: Object.fromEntries(r.byCriterion.map((c) => [c.criterion, stat(c.alignmentRate)])),
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
  const left = leftOutOf(
    getDb(),
    studyId,
    names.map((n) => runs.get(n)!),
    'accuracy, macro-F1 and κ',
  );
  if (left) for (const c of columns) Object.assign(c, rubricScoresWithout(actor, studyId, c.name, sample, left.itemIds));
  return { studyId, sample, dimensions, leftOut: left?.dto ?? null, runs: columns };
}

/**
 * A rubric run's scores on every item but `left`, as the rubric alignment report scores them (its pooling over
 * dimensions with different label sets and its lenient maps). The fields keep the order the comparison has always
 * written a rescored run in.
 */
function rubricScoresWithout(actor: Actor, studyId: number, name: string, sample: number, left: Set<number>) {
  const r = alignmentReport(actor, studyId, 'rubric-alignment', { judge: name, sample, bootstrap: 0 }, left);
  const inOrder = (s: RubricAlignmentSummaryDto) => {
    const { n, alignment, macroF1, kappa, macroF1Lenient, kappaLenient } = scores(s);
    return { n, alignment, macroF1, kappa, macroF1Lenient, kappaLenient };
  };
  return { ...inOrder(r.overall), byDimension: Object.fromEntries(r.byCriterion.map((c) => [c.criterion, inOrder(c)])) };
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
