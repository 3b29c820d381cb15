import 'server-only';
import * as z from 'zod';
import { getDb } from '@/db/client';
import {
  type Stat,
  type TieSplit,
  alignmentSummary,
  cohenKappa,
  contingencyTable,
  judgeVsAnnotators,
  positionConsistency,
} from '@/lib/stats';
import type { Actor } from '../actor';
import { parseInput } from '../parse';
import {
  type Frame,
  type JudgeCodes,
  LABEL_SET,
  Q,
  ResampledRows,
  analysableStudy,
  bootstrapEstimates,
  bootstrapInfo,
  bootstrapSeed,
  drawCounts,
  judgeNameSchema,
  loadFrame,
  loadGold,
  loadHumanLabels,
  loadJudge,
  judgeRunNamed,
  principleGroups,
  replicatesSchema,
  statDto,
  wilson,
  type HumanLabels,
} from './data';
import type { AlignmentReportDto, AlignmentSummaryDto, PositionConsistencyDto, VoteAgreementDto } from './dto';

const optionsSchema = z.object({ judge: judgeNameSchema, bootstrap: replicatesSchema });

/** (item, gold, judge) rows of one group of labels: overall, a criterion, a principle or a model. */
type Group = { items: Int32Array; gold: Int8Array; judge: Int8Array };

/**
 * Splits the labels that have both ground truth and a verdict into groups, in two passes over typed arrays (count,
 * then fill) so that no per-label object is made. Group 0 is everything; then one per criterion, per principle,
 * per model.
 */
function buildGroups(frame: Frame, gold: Int8Array, verdict: Int8Array, principleOf: Int32Array, P: number) {
  const { n } = frame;
  const C = frame.criteria.length;
  const G = 1 + C + P + frame.models.length;
  const sizes = new Int32Array(G);
  const unjudgedBy = new Int32Array(C);
  const { modelOf } = frame;
  const modelBase = 1 + C + P;
  for (let c = 0; c < C; c++) {
    const principleGroup = principleOf[c] >= 0 ? 1 + C + principleOf[c] : -1;
    for (let i = 0; i < n; i++) {
      if (gold[c * n + i] < 0) continue;
      if (verdict[c * n + i] < 0) {
        unjudgedBy[c]++;
        continue;
      }
      sizes[0]++;
      sizes[1 + c]++;
      if (principleGroup >= 0) sizes[principleGroup]++;
      sizes[modelBase + modelOf[i]]++;
    }
  }
  const groups: Group[] = Array.from(sizes, (m) => ({ items: new Int32Array(m), gold: new Int8Array(m), judge: new Int8Array(m) }));
  const fill = new Int32Array(G);
  const put = (group: Group, k: number, i: number, g: number, v: number) => {
    const r = fill[k]++;
    group.items[r] = i;
    group.gold[r] = g;
    group.judge[r] = v;
  };
  for (let c = 0; c < C; c++) {
    const principleGroup = principleOf[c] >= 0 ? 1 + C + principleOf[c] : -1;
    for (let i = 0; i < n; i++) {
      const g = gold[c * n + i];
      const v = verdict[c * n + i];
      if (g < 0 || v < 0) continue;
      put(groups[0], 0, i, g, v);
      put(groups[1 + c], 1 + c, i, g, v);
      if (principleGroup >= 0) put(groups[principleGroup], principleGroup, i, g, v);
      const m = modelBase + modelOf[i];
      put(groups[m], m, i, g, v);
    }
  }
  return { groups, unjudgedBy };
}

function voteAgreement(split: TieSplit): VoteAgreementDto {
  const { withTies, withoutTies } = split;
  return {
    n: withTies.total,
    agreement: statDto(withTies.rate),
    nNoTies: withoutTies.total,
    agreementNoTies: statDto(withoutTies.rate),
    intervals: { agreement: wilson(withTies.agree, withTies.total), agreementNoTies: wilson(withoutTies.agree, withoutTies.total) },
  };
}

/**
 * The judge's votes beside the humans' on every (item, criterion) the judge gave a verdict on and at least one
 * person labelled: per annotator, all votes together, and human against human on the same keys (the ceiling).
 */
function votes(frame: Frame, human: HumanLabels, verdict: Int8Array) {
  const { n } = frame;
  const S = human.slots;
  let K = 0;
  human.byCriterion.forEach(({ items }, c) => {
    for (let r = 0; r < items.length; r++) if (verdict[c * n + items[r]] >= 0) K++;
  });
  const judge = new Int8Array(K);
  const slots = Array.from({ length: S }, () => new Int8Array(K).fill(-1));
  // Each annotator's votes beside the judge's: counted first, then written into arrays of that size.
  const perUserCount = new Int32Array(human.users.length);
  for (let c = 0; c < human.byCriterion.length; c++) {
    const { items, codes } = human.byCriterion[c];
    for (let r = 0; r < items.length; r++) {
      const i = items[r];
      if (verdict[c * n + i] < 0) continue;
      for (let s = 0; s < S; s++) {
        const u = human.slotUser[i * S + s];
        if (codes[r * S + s] >= 0 && u >= 0) perUserCount[u]++;
      }
    }
  }
  const perUser = Array.from(perUserCount, (m) => ({ judge: new Int8Array(m), human: new Int8Array(m), filled: 0 }));
  let k = 0;
  for (let c = 0; c < human.byCriterion.length; c++) {
    const { items, codes } = human.byCriterion[c];
    for (let r = 0; r < items.length; r++) {
      const i = items[r];
      const v = verdict[c * n + i];
      if (v < 0) continue;
      judge[k] = v;
      for (let s = 0; s < S; s++) {
        const x = codes[r * S + s];
        slots[s][k] = x;
        const u = human.slotUser[i * S + s];
        if (x >= 0 && u >= 0) {
          const p = perUser[u];
          p.judge[p.filled] = v;
          p.human[p.filled] = x;
          p.filled++;
        }
      }
      k++;
    }
  }
  const all = judgeVsAnnotators(judge, slots);
  const byAnnotator = perUser.flatMap((p, u) =>
    p.judge.length === 0
      ? []
      : [
          {
            annotator: human.users[u],
            ...voteAgreement(judgeVsAnnotators(p.judge, [p.human]).judgeVsHuman),
          },
        ],
  );
  return { byAnnotator, judgeVsHuman: voteAgreement(all.judgeVsHuman), humanVsHuman: voteAgreement(all.humanVsHuman) };
}

function consistency(codes: JudgeCodes): PositionConsistencyDto {
  const pc = positionConsistency(codes.original, codes.swapped);
  if (pc.total === 0) return { value: null, reason: 'no_both_orders' };
  return { n: pc.total, consistent: pc.agree, rate: statDto(pc.rate), interval: wilson(pc.agree, pc.total) };
}

/**
 * How well one judge run matches ground truth (`groundTruth`, under the study's rule): alignment rate with and
 * without ties, Cohen's κ and the confusion matrix — overall, per criterion, per principle and per model — the
 * judge against each annotator next to human–human agreement, and position consistency. The verdict given in the
 * canonical order counts; a swapped verdict counts only where it is the only one. Leads and admins only.
 */
export function alignmentReport(actor: Actor, studyId: number, opts: { judge: string; bootstrap?: number | string }): AlignmentReportDto {
  const db = getDb();
  const study = analysableStudy(db, actor, studyId);
  const { judge, bootstrap: replicates } = parseInput(optionsSchema, opts);
  const run = judgeRunNamed(db, studyId, judge);
  const frame = loadFrame(db, study);
  const C = frame.criteria.length;
  const principles = principleGroups(frame.criteria);
  const principleOf = new Int32Array(C).fill(-1);
  principles.forEach((p, k) => p.criteria.forEach((c) => (principleOf[c] = k)));

  const { gold, labels, incompleteItems } = loadGold(db, frame);
  const codes = loadJudge(db, frame, run.id);
  const { groups, unjudgedBy } = buildGroups(frame, gold, codes.verdict, principleOf, principles.length);

  const seed = bootstrapSeed(study.seed, `alignment:${run.name}`);
  const w = new Int32Array(frame.n);
  const rows = new ResampledRows();
  const est = bootstrapEstimates(
    frame.n,
    (drawn) => {
      const weights = drawCounts(drawn, w);
      const out: Record<string, Stat> = {};
      groups.forEach((g, k) => {
        const table = contingencyTable(g.gold, g.judge, Q, rows.of(g.items, weights));
        out[`${k}.k`] = cohenKappa(table);
        out[`${k}.kl`] = cohenKappa(table, { weights: 'linear' });
        out[`${k}.kq`] = cohenKappa(table, { weights: 'quadratic' });
      });
      return out;
    },
    replicates,
    seed,
  );

  const summary = (k: number): AlignmentSummaryDto => {
    const g = groups[k];
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
        cohenKappa: est[`${k}.k`].interval,
        cohenKappaLinear: est[`${k}.kl`].interval,
        cohenKappaQuadratic: est[`${k}.kq`].interval,
      },
    };
  };

  const human = loadHumanLabels(db, frame);
  const v = votes(frame, human, codes.verdict);
  return {
    studyId,
    judge: run.name,
    groundTruthRule: study.groundTruthRule,
    labelSet: LABEL_SET,
    bootstrap: bootstrapInfo(replicates, seed),
    groundTruth: { labels, incompleteItems },
    unparsedVerdicts: run.unparsed,
    overall: summary(0),
    byCriterion: frame.criteria.map((info, c) => ({
      criterion: info.id,
      name: info.name,
      level: info.level,
      ...(info.principle ? { principle: info.principle } : {}),
      unjudged: unjudgedBy[c],
      ...summary(1 + c),
    })),
    byPrinciple: principles.map((p, k) => ({
      principle: p.principle,
      criteria: p.criteria.map((c) => frame.criteria[c].id),
      ...summary(1 + C + k),
    })),
    byModel: frame.models.map((model, m) => ({ model, ...summary(1 + C + principles.length + m) })),
    judgeVsAnnotators: v.byAnnotator,
    judgeVsHuman: v.judgeVsHuman,
    humanVsHuman: v.humanVsHuman,
    positionConsistency: consistency(codes),
    unjudged: unjudgedBy.reduce((a, b) => a + b, 0),
  };
}
