import 'server-only';
import * as z from 'zod';
import { getDb, type Db } from '@/db/client';
import type { StudyRow } from '@/db/queries/studies';
import {
  type RatingMatrix,
  type Stat,
  cohenKappa,
  contingencyTable,
  fleissKappa,
  itemCountsFromRatings,
  krippendorffAlpha,
  macroMean,
  percentAgreement,
  percentAgreementPairwise,
} from '@/lib/stats';
import type { Actor } from '../actor';
import { parseInput } from '../parse';
import {
  type CriterionInfo,
  type Estimate,
  type HumanLabels,
  LABEL_SET,
  Q,
  ResampledRows,
  analysableStudy,
  bootstrapEstimates,
  bootstrapInfo,
  bootstrapSeed,
  drawCounts,
  loadFrame,
  loadHumanLabels,
  noInterval,
  replicatesSchema,
  statDto,
  wilson,
} from './data';
import type {
  AgreementCriterionDto,
  AgreementPairDto,
  AgreementReportDto,
  BootstrapInfoDto,
  IntervalDto,
  MacroKey,
  RubricAgreementReportDto,
  StatDto,
} from './dto';
import { analysableRubricStudy, dimensionDtos, loadRubricFrame, loadRubricHumanLabels } from './dimension-frame';

const optionsSchema = z.object({ bootstrap: replicatesSchema }).default({ bootstrap: 1000 });

/** One annotator pair on one criterion: codes of both on the items they share (rows = first annotator). */
type Pair = { lo: number; hi: number; items: Int32Array; a: Int8Array; b: Int8Array };

type CriterionData = {
  matrix: RatingMatrix;
  items: Int32Array;
  pairable: number;
  ratings: number;
  /** Items agreed on when every pairable item has exactly two labels (then percent agreement is a proportion). */
  twoRaterAgreed: number | null;
  pairs: Pair[];
};

type PairList = { items: Int32Array; a: Int8Array; b: Int8Array; filled: number };

const newPairList = (m: number): PairList => ({ items: new Int32Array(m), a: new Int8Array(m), b: new Int8Array(m), filled: 0 });

function criterionData(h: HumanLabels, c: number): CriterionData {
  const { items, codes } = h.byCriterion[c];
  const S = h.slots;
  const U = h.users.length;
  const m = items.length;
  let pairLists = new Map<number, PairList>();
  // Two passes over the items: count each annotator pair's shared items, then fill typed arrays of that size.
  // Users are indexed in username order, so (lo, hi) names the pair the same way on every item.
  // Consecutive items mostly share their pair, so the last pair's entry is kept at hand.
  const pairCount = new Map<number, number>();
  let lastKey = -1;
  let lastCount = 0;
  let last: PairList | undefined;
  for (let pass = 0; pass < 2; pass++) {
    const lists = pass === 1 ? new Map([...pairCount].map(([key, m]) => [key, newPairList(m)])) : null;
    lastKey = -1;
    for (let r = 0; r < m; r++) {
      const i = items[r];
      for (let s = 0; s < S; s++) {
        const x = codes[r * S + s];
        if (x < 0) continue;
        for (let t = s + 1; t < S; t++) {
          const y = codes[r * S + t];
          if (y < 0) continue;
          const u = h.slotUser[i * S + s];
          const v = h.slotUser[i * S + t];
          if (u < 0 || v < 0) continue;
          const key = u < v ? u * U + v : v * U + u;
          if (!lists) {
            if (key !== lastKey) {
              if (lastKey >= 0) pairCount.set(lastKey, lastCount);
              lastKey = key;
              lastCount = pairCount.get(key) ?? 0;
            }
            lastCount++;
            continue;
          }
          if (key !== lastKey) {
            last = lists.get(key)!;
            lastKey = key;
          }
          const l = last!;
          l.items[l.filled] = i;
          l.a[l.filled] = u < v ? x : y;
          l.b[l.filled] = u < v ? y : x;
          l.filled++;
        }
      }
    }
    if (lists) pairLists = lists;
    else if (lastKey >= 0) pairCount.set(lastKey, lastCount);
  }
  let pairable = 0;
  let ratings = 0;
  let exactlyTwo = true;
  let agreedOfTwo = 0;
  for (let r = 0; r < m; r++) {
    let count = 0;
    let first = -1;
    let agreed = false;
    for (let s = 0; s < S; s++) {
      const x = codes[r * S + s];
      if (x < 0) continue;
      count++;
      if (first < 0) first = x;
      else if (count === 2 && x === first) agreed = true;
    }
    ratings += count;
    if (count >= 2) pairable++;
    if (count > 2) exactlyTwo = false;
    if (count === 2 && agreed) agreedOfTwo++;
  }
  const pairs = [...pairLists]
    .map(([key, l]): Pair => ({ lo: Math.floor(key / U), hi: key % U, items: l.items, a: l.a, b: l.b }))
    .sort((p, q) => p.lo - q.lo || p.hi - q.hi);
  return {
    matrix: { nItems: m, nRaters: S, codes },
    items,
    pairable,
    ratings,
    twoRaterAgreed: exactlyTwo ? agreedOfTwo : null,
    pairs,
  };
}

/**
 * The most annotator pairs of one criterion whose Cohen κ get bootstrap intervals: the 45 pairs of the ten reviewers
 * a study can plan. Imported crowd labels bring hundreds of raters (decision 0028): 150 raters make 11,175 pairs,
 * and bootstrapping each took four minutes for three items. Beyond it the pairs keep their exact κ, without an
 * interval (`not_computed`); the criterion's own statistics (Fleiss' κ, Krippendorff's α) keep theirs.
 */
export const MAX_BOOTSTRAPPED_PAIRS = 45;

const diagonal = (t: number[][]) => t.reduce((s, row, k) => s + row[k], 0);

/**
 * What the agreement core reads of a study, loaded its kind's way: the reviewers' labels, the catalog's entries
 * (criteria, or a rubric's dimensions) with their label-set sizes, and how the kind's report wraps the statistics
 * (the JSON each kind's report has always had). The statistics are the same for every kind (`agreementByCriterion`).
 */
type AgreementInput<D> = {
  human: HumanLabels;
  n: number;
  infos: readonly CriterionInfo[];
  q: readonly number[];
  report(core: Pick<AgreementReportDto, 'criteria' | 'macro'>, bootstrap: BootstrapInfoDto): D;
};

/** A kind's part of the agreement report: which studies it reads (leads and admins, studies of the kind) and how. */
type AgreementKind<D> = {
  study(db: Db, actor: Actor, studyId: number): StudyRow;
  read(db: Db, study: StudyRow): AgreementInput<D>;
};

/** A pairwise study: its criteria and overall, each on lose/tie/win. */
const pairwiseAgreement: AgreementKind<AgreementReportDto> = {
  study: analysableStudy,
  read: (db, study) => {
    const frame = loadFrame(db, study);
    return {
      human: loadHumanLabels(db, frame),
      n: frame.n,
      infos: frame.criteria,
      q: frame.criteria.map(() => Q),
      report: (core, bootstrap) => ({ studyId: study.id, labelSet: LABEL_SET, bootstrap, ...core }),
    };
  },
};

/** A rubric study: its dimensions, each on its own label set and order. */
const rubricAgreement: AgreementKind<RubricAgreementReportDto> = {
  study: analysableRubricStudy,
  read: (db, study) => {
    const frame = loadRubricFrame(db, study);
    return {
      human: loadRubricHumanLabels(db, frame),
      n: frame.n,
      infos: frame.dimensions.map((d) => ({ id: d.id, name: d.name, level: 'general' })),
      q: frame.dimensions.map((d) => d.labels.length),
      report: (core, bootstrap) => ({
        studyId: study.id,
        kind: 'rubric',
        bootstrap,
        dimensions: dimensionDtos(frame),
        criteria: core.criteria.map((c, d) => ({ ...c, labels: [...frame.dimensions[d].labels] })),
        macro: core.macro,
      }),
    };
  },
};

/**
 * Inter-annotator agreement before adjudication, per criterion (a rubric's dimension) and macro-averaged: percent
 * agreement, Fleiss' κ, Krippendorff's α (nominal and ordinal, on the entry's label order) over all annotators, and
 * Cohen's κ (unweighted, linear, quadratic) for every pair of annotators that shares items; item-bootstrap intervals
 * for κ and α. Leads and admins only.
 */
const agreementOf =
  <D>(kind: AgreementKind<D>) =>
  (actor: Actor, studyId: number, opts: { bootstrap?: number | string } = {}): D => {
    const db = getDb();
    const study = kind.study(db, actor, studyId);
    const { bootstrap: replicates } = parseInput(optionsSchema, opts);
    const input = kind.read(db, study);
    const seed = bootstrapSeed(study.seed, 'agreement');
    const core = agreementByCriterion(input.human, input.n, input.infos, input.q, replicates, seed);
    return input.report(core, bootstrapInfo(replicates, seed));
  };

/** The agreement report of a pairwise study (report `agreement`). */
export const agreementReport = agreementOf(pairwiseAgreement);

/** The agreement report of a rubric study (report `rubric-agreement`): the same statistics on its dimensions. */
export const rubricAgreementReport = agreementOf(rubricAgreement);

/**
 * The agreement statistics for any label sets: `q[c]` labels on criterion c, in their order (weighted κ and ordinal
 * α read the codes as ranks).
 */
export function agreementByCriterion(
  human: HumanLabels,
  nItems: number,
  infos: readonly CriterionInfo[],
  q: readonly number[],
  replicates: number,
  seed: number,
): Pick<AgreementReportDto, 'criteria' | 'macro'> {
  const data = infos.map((_, c) => criterionData(human, c));
  const w = new Int32Array(nItems);
  const rows = new ResampledRows();
  const statistics = (drawn: Int32Array) => {
    const weights = drawCounts(drawn, w);
    const out: Record<string, Stat> = {};
    const pa: Stat[] = [];
    const fk: Stat[] = [];
    const an: Stat[] = [];
    const ao: Stat[] = [];
    data.forEach((d, c) => {
      const counts = itemCountsFromRatings(d.matrix, q[c], rows.of(d.items, weights));
      pa.push((out[`${c}.pa`] = percentAgreementPairwise(counts)));
      // Gwet's generalisation of Fleiss' κ (lib/stats/SPEC.md): defined whatever the number of labels per item, so
      // imported crowd labels and a reviewer beyond the plan keep it (decision 0028).
      fk.push((out[`${c}.fk`] = fleissKappa(counts)));
      an.push((out[`${c}.an`] = krippendorffAlpha(counts, { metric: 'nominal' })));
      ao.push((out[`${c}.ao`] = krippendorffAlpha(counts, { metric: 'ordinal' })));
      if (d.pairs.length > MAX_BOOTSTRAPPED_PAIRS) return;
      d.pairs.forEach((p, k) => {
        const table = contingencyTable(p.a, p.b, q[c], rows.of(p.items, weights));
        out[`${c}.${k}.k`] = cohenKappa(table);
        out[`${c}.${k}.kl`] = cohenKappa(table, { weights: 'linear' });
        out[`${c}.${k}.kq`] = cohenKappa(table, { weights: 'quadratic' });
      });
    });
    out['macro.pa'] = macroMean(pa);
    out['macro.fk'] = macroMean(fk);
    out['macro.an'] = macroMean(an);
    out['macro.ao'] = macroMean(ao);
    return out;
  };
  const est = bootstrapEstimates(nItems, statistics, replicates, seed);
  const value = (key: string) => statDto(est[key].estimate);
  const boot = (key: string) => est[key].interval;

  const criteria = infos.map((info, c): AgreementCriterionDto => {
    const d = data[c];
    return {
      criterion: info.id,
      name: info.name,
      level: info.level,
      ...(info.principle ? { principle: info.principle } : {}),
      items: d.pairable,
      ratings: d.ratings,
      percentAgreement: value(`${c}.pa`),
      fleissKappa: value(`${c}.fk`),
      krippendorffAlphaNominal: value(`${c}.an`),
      krippendorffAlphaOrdinal: value(`${c}.ao`),
      intervals: {
        // With exactly two labels per item, percent agreement is a share of items: Wilson. Otherwise it is a mean
        // of per-item shares, and only the item bootstrap respects that.
        percentAgreement: d.twoRaterAgreed !== null ? wilson(d.twoRaterAgreed, d.pairable) : boot(`${c}.pa`),
        fleissKappa: boot(`${c}.fk`),
        krippendorffAlphaNominal: boot(`${c}.an`),
        krippendorffAlphaOrdinal: boot(`${c}.ao`),
      },
      pairs: d.pairs.map((p, k): AgreementPairDto => {
        const table = contingencyTable(p.a, p.b, q[c]);
        const booted = d.pairs.length <= MAX_BOOTSTRAPPED_PAIRS;
        const kappa = (key: string, weights?: 'linear' | 'quadratic') =>
          booted ? value(`${c}.${k}.${key}`) : statDto(cohenKappa(table, weights ? { weights } : {}));
        const interval = (key: string) => (booted ? boot(`${c}.${k}.${key}`) : noInterval('bootstrap', 'not_computed'));
        return {
          annotators: [human.users[p.lo], human.users[p.hi]],
          items: p.items.length,
          percentAgreement: statDto(percentAgreement(table)),
          cohenKappa: kappa('k'),
          cohenKappaLinear: kappa('kl', 'linear'),
          cohenKappaQuadratic: kappa('kq', 'quadratic'),
          intervals: {
            percentAgreement: wilson(diagonal(table), p.items.length),
            cohenKappa: interval('k'),
            cohenKappaLinear: interval('kl'),
            cohenKappaQuadratic: interval('kq'),
          },
        };
      }),
    };
  });

  const macroOf = (key: string) => est[`macro.${key}`] as Estimate & { estimate: { included?: number } };
  // Every statistic of a criterion has a macro mean: a record, so a statistic added to CRITERION_STATS needs its code.
  const CODES: Record<MacroKey, string> = {
    percentAgreement: 'pa',
    fleissKappa: 'fk',
    krippendorffAlphaNominal: 'an',
    krippendorffAlphaOrdinal: 'ao',
  };
  const KEYS = Object.entries(CODES) as [MacroKey, string][];
  const macro = {
    ...(Object.fromEntries(KEYS.map(([name, key]) => [name, statDto(macroOf(key).estimate)])) as Record<MacroKey, StatDto>),
    criteriaIncluded: Object.fromEntries(KEYS.map(([name, key]) => [name, macroOf(key).estimate.included ?? 0])) as Record<
      MacroKey,
      number
    >,
    intervals: Object.fromEntries(KEYS.map(([name, key]) => [name, macroOf(key).interval])) as Record<MacroKey, IntervalDto>,
  };
  return { criteria, macro };
}
