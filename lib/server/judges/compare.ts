import 'server-only';
import type { Actor } from '../actor';
import { alignmentReport } from '../analytics/alignment';
import type { RubricAlignmentSummaryDto } from '../analytics/dto';
import { rubricAlignmentReport } from '../analytics/rubric-alignment';
import { invalid } from '../errors';
import type { JudgeComparisonDto, RubricComparisonScoresDto, RubricJudgeComparisonDto } from './dto';
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
    const r = alignmentReport(actor, studyId, { judge: name, bootstrap: 0 });
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
  return {
    studyId,
    criteria: [...criteria].map(([id, name]) => ({ id, name })),
    runs: columns.map(({ criteria: _c, ...rest }) => rest),
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
    const r = rubricAlignmentReport(actor, studyId, { judge: name, sample, bootstrap: 0 });
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
  return { studyId, sample, dimensions, runs: columns };
}
