import 'server-only';
import { rubricJudgeSamples } from '@/db/queries/analytics';
import { alignmentSummary, cohenKappa, contingencyTable } from '@/lib/stats';
import { alignmentFromConfusion } from '@/lib/stats/rubric';
import type { StudyKind } from '@/lib/validation/labels';
import type { Db } from '@/db/client';
import type { AlignmentKindPart, ReportRun, ReportStudy } from './alignment';
import { consistency, votes } from './alignment-votes';
import {
  LABEL_SET,
  Q,
  loadFrame,
  loadGold,
  loadHumanLabels,
  loadJudge,
  missing,
  noInterval,
  principleGroups,
  statDto,
  wilson,
} from './data';
import type { AlignmentReportDto, AlignmentSummaryDto, RubricAlignmentReportDto, RubricAlignmentSummaryDto, RubricSummaryDto } from './dto';
import { dimensionDtos, loadRubricFrame, loadRubricGold, loadRubricJudge, sampleSchema } from './dimension-frame';

/*
 * Each kind's part of the alignment report (the core is alignment.ts): how its labels are loaded, which groups it
 * adds, what its summary of a group holds and how its DTO reads. The one map keyed by kind id the core asks.
 */

type PairwiseOptions = { judge: string; bootstrap: number };

function loadPairwise(db: Db, study: ReportStudy, run: ReportRun) {
  const frame = loadFrame(db, study);
  const principles = principleGroups(frame.criteria);
  const principleOf = new Int32Array(frame.criteria.length).fill(-1);
  principles.forEach((p, k) => p.criteria.forEach((c) => (principleOf[c] = k)));
  const gold = loadGold(db, frame);
  const codes = loadJudge(db, frame, run.id);
  return {
    frame,
    principles,
    principleOf,
    gold,
    codes,
    labels: { n: frame.n, entries: frame.criteria.length, gold: gold.gold, verdict: codes.verdict },
    itemIds: frame.items.ids,
  };
}

const pairwise = {
  options: {},
  load: loadPairwise,
  // Principle criteria pooled by their principle; then by the model that wrote reply a.
  families: (l) => [
    { size: l.principles.length, entry: l.principleOf },
    { size: l.frame.models.length, item: l.frame.modelOf },
  ],
  scorings: (l) => [{ labels: l.frame.criteria.map(() => LABEL_SET) }],
  coefficients: {
    k: (t) => cohenKappa(t),
    kl: (t) => cohenKappa(t, { weights: 'linear' }),
    kq: (t) => cohenKappa(t, { weights: 'quadratic' }),
  },
  seedPurpose: (run) => `alignment:${run.name}`,
  summary: (g, _labels, intervals): AlignmentSummaryDto => {
    const s = alignmentSummary(contingencyTable(g.gold, g.judge, Q));
    return {
      n: s.rate.total,
      agree: s.rate.agree,
      alignmentRate: statDto(s.rate.rate),
      nNoTies: s.withoutTies.total,
      alignmentRateNoTies: statDto(s.withoutTies.rate),
      cohenKappa: statDto(s.kappa),
      cohenKappaLinear: statDto(s.kappaLinear),
      cohenKappaQuadratic: statDto(s.kappaQuadratic),
      confusion: s.confusion,
      intervals: {
        alignmentRate: wilson(s.rate.agree, s.rate.total),
        alignmentRateNoTies: wilson(s.withoutTies.agree, s.withoutTies.total),
        cohenKappa: intervals!.k,
        cohenKappaLinear: intervals!.kl,
        cohenKappaQuadratic: intervals!.kq,
      },
    };
  },
  report: ({ db, study, run, loaded: l, bootstrap, scored: [strict], summary }): AlignmentReportDto => {
    const C = l.frame.criteria.length;
    const P = l.principles.length;
    const v = votes(l.frame, loadHumanLabels(db, l.frame), l.codes.verdict);
    return {
      studyId: study.id,
      judge: run.name,
      groundTruthRule: study.groundTruthRule,
      labelSet: LABEL_SET,
      bootstrap,
      groundTruth: { labels: l.gold.labels, incompleteItems: l.gold.incompleteItems },
      unparsedVerdicts: run.unparsed,
      overall: summary(0, 0),
      byCriterion: l.frame.criteria.map((info, c) => ({
        criterion: info.id,
        name: info.name,
        level: info.level,
        ...(info.principle ? { principle: info.principle } : {}),
        unjudged: strict.unjudged[c],
        ...summary(0, 1 + c),
      })),
      byPrinciple: l.principles.map((p, k) => ({
        principle: p.principle,
        criteria: p.criteria.map((c) => l.frame.criteria[c].id),
        ...summary(0, 1 + C + k),
      })),
      byModel: l.frame.models.map((model, m) => ({ model, ...summary(0, 1 + C + P + m) })),
      judgeVsAnnotators: v.byAnnotator,
      judgeVsHuman: v.judgeVsHuman,
      humanVsHuman: v.humanVsHuman,
      positionConsistency: consistency(l.codes),
      unjudged: strict.unjudged.reduce((a, b) => a + b, 0),
    };
  },
} satisfies AlignmentKindPart<PairwiseOptions, ReturnType<typeof loadPairwise>, AlignmentSummaryDto, AlignmentReportDto>;

type RubricOptions = PairwiseOptions & { sample: number };

/** A rubric summary where dimensions with different label sets are pooled: only the share of matches is defined. */
function pooledSummary(gold: Int8Array, judge: Int8Array): RubricSummaryDto {
  let agree = 0;
  for (let r = 0; r < gold.length; r++) if (gold[r] === judge[r]) agree++;
  const n = gold.length;
  return {
    n,
    agree,
    alignmentRate: n ? { value: agree / n } : missing('no_items'),
    macroF1: missing('mixed_label_sets'),
    cohenKappa: missing('mixed_label_sets'),
    labels: null,
    confusion: null,
    classwise: [],
    intervals: { alignmentRate: wilson(agree, n), cohenKappa: noInterval('bootstrap', 'mixed_label_sets') },
  };
}

function loadRubric(db: Db, study: ReportStudy, run: ReportRun, o: RubricOptions) {
  const frame = loadRubricFrame(db, study);
  const gt = loadRubricGold(db, frame);
  const verdict = loadRubricJudge(db, frame, run, o.sample);
  return { frame, gt, labels: { n: frame.n, entries: frame.D, gold: gt.gold, verdict }, itemIds: frame.items.ids };
}

const rubric = {
  options: { sample: sampleSchema },
  load: loadRubric,
  // By tutor (every dimension pooled), then tutor × dimension (Padó Table 3).
  families: ({ frame }) => [
    { size: frame.tutors.length, item: frame.tutorOf },
    {
      size: frame.tutors.length * frame.D,
      item: frame.tutorOf,
      entry: Int32Array.from({ length: frame.D }, (_, d) => d),
      entrySize: frame.D,
    },
  ],
  // Strict, and lenient (labels folded by the dimension's map) when a dimension has a map.
  scorings: ({ frame }) => [
    { labels: frame.dimensions.map((d) => d.labels) },
    ...(frame.lenient.some((m) => m !== null) ? [{ labels: frame.lenientLabels, fold: frame.lenient }] : []),
  ],
  coefficients: { k: (t) => cohenKappa(t) },
  seedPurpose: (run, o) => `alignment:${run.name}:${o.sample}`,
  summary: (g, labels, intervals): RubricSummaryDto => {
    if (!labels) return pooledSummary(g.gold, g.judge);
    const a = alignmentFromConfusion(contingencyTable(g.gold, g.judge, labels.length), labels);
    return {
      n: a.n,
      agree: a.agree,
      alignmentRate: statDto(a.alignmentRate),
      macroF1: statDto(a.macroF1),
      cohenKappa: statDto(a.cohenKappa),
      labels: [...labels],
      confusion: a.confusion,
      classwise: a.classwise.map((c) => ({
        label: c.label,
        predicted: c.predicted,
        correct: c.correct,
        accuracy: statDto(c.accuracy),
        support: c.support,
        recall: statDto(c.recall),
        intervals: { accuracy: wilson(c.correct, c.predicted), recall: wilson(c.correct, c.support) },
      })),
      intervals: { alignmentRate: wilson(a.agree, a.n), cohenKappa: intervals!.k },
    };
  },
  report: ({ db, study, run, options, loaded: { frame, gt }, bootstrap, scored, summary }): RubricAlignmentReportDto => {
    const { D } = frame;
    const T = frame.tutors.length;
    const lenient = scored.length > 1;
    /** Strict summary of group k, with its lenient one when the group's dimensions have a map. */
    const both = (k: number, hasLenient: boolean): RubricAlignmentSummaryDto => ({
      ...summary(0, k),
      ...(lenient && hasLenient ? { lenient: summary(1, k) } : {}),
    });
    const allLenient = frame.lenient.every((m) => m !== null);
    const strict = scored[0];
    return {
      studyId: study.id,
      kind: 'rubric',
      judge: run.name,
      sample: options.sample,
      samples: rubricJudgeSamples(db, run.id),
      groundTruthRule: study.groundTruthRule,
      bootstrap,
      dimensions: dimensionDtos(frame),
      groundTruth: { labels: gt.labels, incompleteItems: gt.incompleteItems },
      unparsedVerdicts: run.unparsed,
      overall: both(0, allLenient),
      byCriterion: frame.dimensions.map((dim, d) => ({
        criterion: dim.id,
        name: dim.name,
        unjudged: strict.unjudged[d],
        ...both(1 + d, frame.lenient[d] !== null),
      })),
      byModel: frame.tutors.map((model, t) => ({
        model,
        ...both(1 + D + t, allLenient),
        byCriterion: frame.dimensions.map((dim, d) => ({
          criterion: dim.id,
          name: dim.name,
          ...both(1 + D + T + t * D + d, frame.lenient[d] !== null),
        })),
      })),
      unjudged: strict.unjudged.reduce((a, b) => a + b, 0),
    };
  },
} satisfies AlignmentKindPart<RubricOptions, ReturnType<typeof loadRubric>, RubricSummaryDto, RubricAlignmentReportDto>;

/** The alignment part of each kind that has the report. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each part types its own options, data and DTO
export const ALIGNMENT_BY_KIND: Partial<Record<StudyKind, AlignmentKindPart<any, any, any, unknown>>> = { pairwise, rubric };
