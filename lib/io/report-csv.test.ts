import { describe, expect, it } from 'vitest';
import type {
  AgreementReportDto,
  AlignmentReportDto,
  AlignmentSummaryDto,
  HybridReportDto,
  IntervalDto,
  LeaderboardReportDto,
  LeaderboardRowDto,
  StatDto,
} from '@/lib/server/analytics/dto';
import { REPORT_TABLES, isReportTable } from '@/lib/server/analytics/dto';
import { reportCsv } from './report-csv';
import { acceptance } from '@/test/report-fixtures';

const v = (value: number): StatDto => ({ value });
const none = (reason: 'no_variation' | 'unequal_ratings' | 'no_items' | 'not_applicable' | 'empty_class'): StatDto => ({
  value: null,
  reason,
});
const wil = (lower: number, upper: number): IntervalDto => ({ method: 'wilson', lower, upper });
const boot = (lower: number, upper: number): IntervalDto => ({ method: 'bootstrap', lower, upper, undefinedReplicates: 0 });
const off: IntervalDto = { method: 'bootstrap', lower: null, upper: null, reason: 'not_computed' };
const BOOT = { replicates: 0, seed: 7, level: 0.95, quantile: 'linear' } as const;

/** Splits one CRLF-terminated CSV line into cells (RFC 4180 quoting). */
function cells(line: string): string[] {
  const out: string[] = [];
  let cell = '';
  let quoted = false;
  const body = line.replace(/\r\n$/, '');
  for (let k = 0; k < body.length; k++) {
    const ch = body[k];
    if (quoted) {
      if (ch === '"' && body[k + 1] === '"') {
        cell += '"';
        k++;
      }
      else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      out.push(cell);
      cell = '';
    }
    else cell += ch;
  }
  out.push(cell);
  return out;
}

/** Reads CSV lines back into records keyed by the header, the way a reader of the download would. */
function records(lines: string[]): Record<string, string>[] {
  const [header, ...rows] = lines.map(cells);
  for (const r of rows) expect(r).toHaveLength(header.length);
  return rows.map((r) => Object.fromEntries(header.map((h, k) => [h, r[k]])));
}

const agreement: AgreementReportDto = {
  studyId: 5,
  labelSet: ['lose', 'tie', 'win'],
  bootstrap: BOOT,
  criteria: [
    {
      criterion: 'coherence',
      name: 'Contextual coherence',
      level: 'general',
      items: 10,
      ratings: 21,
      percentAgreement: v(0.8),
      fleissKappa: none('unequal_ratings'),
      krippendorffAlphaNominal: v(0.61),
      krippendorffAlphaOrdinal: v(0.7),
      intervals: {
        percentAgreement: wil(0.49, 0.94),
        fleissKappa: { method: 'bootstrap', lower: null, upper: null, reason: 'unequal_ratings' },
        krippendorffAlphaNominal: off,
        krippendorffAlphaOrdinal: boot(0.4, 0.9),
      },
      pairs: [
        {
          annotators: ['ann1', 'ann2'],
          items: 10,
          percentAgreement: v(0.8),
          cohenKappa: v(0.852),
          cohenKappaLinear: v(0.86),
          cohenKappaQuadratic: v(0.87),
          intervals: { percentAgreement: wil(0.49, 0.94), cohenKappa: off, cohenKappaLinear: off, cohenKappaQuadratic: off },
        },
        {
          annotators: ['ann1', 'ann3'],
          items: 1,
          percentAgreement: v(1),
          cohenKappa: none('no_variation'),
          cohenKappaLinear: none('no_variation'),
          cohenKappaQuadratic: none('no_variation'),
          intervals: { percentAgreement: wil(0.2, 1), cohenKappa: off, cohenKappaLinear: off, cohenKappaQuadratic: off },
        },
      ],
    },
    {
      criterion: 'overall',
      name: 'Overall',
      level: 'overall',
      items: 0,
      ratings: 0,
      percentAgreement: none('no_items'),
      fleissKappa: none('no_items'),
      krippendorffAlphaNominal: none('no_items'),
      krippendorffAlphaOrdinal: none('no_items'),
      intervals: { percentAgreement: off, fleissKappa: off, krippendorffAlphaNominal: off, krippendorffAlphaOrdinal: off },
      pairs: [],
    },
  ],
  macro: {
    percentAgreement: v(0.8),
    fleissKappa: { value: null, reason: 'no_defined_values' },
    krippendorffAlphaNominal: v(0.61),
    krippendorffAlphaOrdinal: v(0.7),
    criteriaIncluded: { percentAgreement: 1, fleissKappa: 0, krippendorffAlphaNominal: 1, krippendorffAlphaOrdinal: 1 },
    intervals: { percentAgreement: off, fleissKappa: off, krippendorffAlphaNominal: off, krippendorffAlphaOrdinal: off },
  },
};

describe('agreement tables', () => {
  it('writes one line per criterion with value, interval and reason columns', () => {
    const lines = reportCsv('agreement', 'criteria', agreement);
    expect(cells(lines[0])).toEqual(
      (
        'criterion,name,level,principle,items,ratings,' +
        'percent_agreement,percent_agreement_lower,percent_agreement_upper,percent_agreement_reason,' +
        'fleiss_kappa,fleiss_kappa_lower,fleiss_kappa_upper,fleiss_kappa_reason,' +
        'krippendorff_alpha_nominal,krippendorff_alpha_nominal_lower,krippendorff_alpha_nominal_upper,krippendorff_alpha_nominal_reason,' +
        'krippendorff_alpha_ordinal,krippendorff_alpha_ordinal_lower,krippendorff_alpha_ordinal_upper,krippendorff_alpha_ordinal_reason'
      ).split(','),
    );
    expect(lines).toHaveLength(3);
    expect(lines.every((l) => l.endsWith('\r\n'))).toBe(true);
    const [coherence, overall] = records(lines);
    expect(coherence).toMatchObject({
      criterion: 'coherence',
      items: '10',
      ratings: '21',
      percent_agreement: '0.8',
      percent_agreement_lower: '0.49',
      percent_agreement_upper: '0.94',
      percent_agreement_reason: '',
      // An undefined value is empty, never 0, and says why.
      fleiss_kappa: '',
      fleiss_kappa_reason: 'unequal_ratings',
      // A defined value whose interval was not computed keeps the value and names the interval's reason.
      krippendorff_alpha_nominal: '0.61',
      krippendorff_alpha_nominal_lower: '',
      krippendorff_alpha_nominal_reason: 'not_computed',
      krippendorff_alpha_ordinal_lower: '0.4',
      krippendorff_alpha_ordinal_upper: '0.9',
    });
    expect(overall).toMatchObject({
      criterion: 'overall',
      level: 'overall',
      principle: '',
      percent_agreement: '',
      percent_agreement_reason: 'no_items',
    });
  });

  it('lists every annotator pair of every criterion, and the macro means with how many criteria they cover', () => {
    const pairs = records(reportCsv('agreement', 'pairs', agreement));
    expect(pairs.map((p) => [p.criterion, p.annotator_1, p.annotator_2, p.cohen_kappa, p.cohen_kappa_reason])).toEqual([
      ['coherence', 'ann1', 'ann2', '0.852', 'not_computed'],
      ['coherence', 'ann1', 'ann3', '', 'no_variation'],
    ]);
    const macro = records(reportCsv('agreement', 'macro', agreement));
    expect(macro.map((m) => [m.statistic, m.value, m.reason, m.criteria_included])).toEqual([
      ['percent_agreement', '0.8', 'not_computed', '1'],
      ['fleiss_kappa', '', 'no_defined_values', '0'],
      ['krippendorff_alpha_nominal', '0.61', 'not_computed', '1'],
      ['krippendorff_alpha_ordinal', '0.7', 'not_computed', '1'],
    ]);
  });
});

function summary(n: number, agree: number, confusion: number[][]): AlignmentSummaryDto {
  return {
    n,
    agree,
    alignmentRate: v(agree / n),
    nNoTies: n - 1,
    alignmentRateNoTies: v(0.9),
    cohenKappa: v(0.5),
    cohenKappaLinear: v(0.55),
    cohenKappaQuadratic: v(0.6),
    confusion,
    intervals: {
      alignmentRate: wil(0.6, 0.8),
      alignmentRateNoTies: wil(0.8, 0.95),
      cohenKappa: boot(0.4, 0.6),
      cohenKappaLinear: boot(0.45, 0.65),
      cohenKappaQuadratic: boot(0.5, 0.7),
    },
  };
}

const vote = (n: number, rate: number) => ({
  n,
  agreement: v(rate),
  nNoTies: n,
  agreementNoTies: v(rate),
  intervals: { agreement: wil(rate - 0.1, rate + 0.05), agreementNoTies: wil(rate - 0.1, rate + 0.05) },
});

const CONFUSION = [
  [360, 20, 86],
  [45, 5, 42],
  [71, 13, 332],
];

const alignment: AlignmentReportDto = {
  studyId: 5,
  judge: 'gpt-3.5-turbo',
  groundTruthRule: 'majority',
  labelSet: ['lose', 'tie', 'win'],
  bootstrap: BOOT,
  groundTruth: { labels: 999, incompleteItems: 0 },
  unparsedVerdicts: 25,
  overall: summary(974, 697, CONFUSION),
  byCriterion: [{ criterion: 'overall', name: 'Overall', level: 'overall', unjudged: 25, ...summary(974, 697, CONFUSION) }],
  byPrinciple: [],
  byModel: [
    { model: '=HYPERLINK("http://x")', ...summary(500, 350, CONFUSION) },
    { model: 'pandalm-response1', ...summary(474, 347, CONFUSION) },
  ],
  judgeVsAnnotators: [
    { annotator: 'ann1', ...vote(974, 0.7) },
    { annotator: 'ann2', ...vote(974, 0.72) },
  ],
  judgeVsHuman: vote(2922, 0.71),
  humanVsHuman: vote(2922, 0.91),
  positionConsistency: { value: null, reason: 'no_both_orders' },
  unjudged: 25,
};

describe('alignment tables', () => {
  it('gives the overall summary in one row, with the unreadable and unjudged counts and why position consistency is missing', () => {
    const [row, ...rest] = records(reportCsv('alignment', 'overall', alignment));
    expect(rest).toHaveLength(0);
    expect(row).toMatchObject({
      judge: 'gpt-3.5-turbo',
      ground_truth_rule: 'majority',
      unparsed_verdicts: '25',
      unjudged: '25',
      n: '974',
      agree: '697',
      cohen_kappa: '0.5',
      cohen_kappa_lower: '0.4',
      position_consistency: '',
      position_consistency_reason: 'no_both_orders',
    });
    expect(Number(row.alignment_rate)).toBeCloseTo(697 / 974, 12);
  });

  it('writes the confusion matrix with ground truth in rows and the judge in columns', () => {
    const lines = reportCsv('alignment', 'confusion', alignment);
    expect(lines).toEqual([
      '"judge","ground_truth","judge_lose","judge_tie","judge_win"\r\n',
      '"gpt-3.5-turbo","lose",360,20,86\r\n',
      '"gpt-3.5-turbo","tie",45,5,42\r\n',
      '"gpt-3.5-turbo","win",71,13,332\r\n',
    ]);
  });

  it('neutralises a model name a spreadsheet would run as a formula', () => {
    const lines = reportCsv('alignment', 'models', alignment);
    expect(lines).toHaveLength(3);
    expect(records(lines)[0].model).toBe(`'=HYPERLINK("http://x")`);
  });

  it('neutralises a formula after a semicolon, for spreadsheets that split cells on it', () => {
    const hostile = { ...alignment, byModel: alignment.byModel.map((m, k) => (k ? m : { ...m, model: "x;=cmd|' /C calc'!A0;y" })) };
    const lines = reportCsv('alignment', 'models', hostile);
    expect(lines[1].startsWith(`"gpt-3.5-turbo","x;'=cmd|' /C calc'!A0;y",`)).toBe(true);
    expect(records(lines)[0].model).toBe("x;'=cmd|' /C calc'!A0;y");
  });

  it('puts each annotator beside all human votes and the human–human ceiling; an empty table is just its header', () => {
    const rows = records(reportCsv('alignment', 'annotators', alignment));
    expect(rows.map((r) => [r.comparison, r.annotator, r.agreement])).toEqual([
      ['judge_vs_annotator', 'ann1', '0.7'],
      ['judge_vs_annotator', 'ann2', '0.72'],
      ['judge_vs_all_humans', '', '0.71'],
      ['human_vs_human', '', '0.91'],
    ]);
    expect(reportCsv('alignment', 'principles', alignment)).toHaveLength(1);
  });
});

function lbRow(grader: string, overall: number, principles: Record<string, StatDto>): LeaderboardRowDto {
  return {
    model: 'model-x',
    grader,
    items: 3,
    overallJudgement: v(overall),
    generalLevelAcc: v(0.5),
    principleLevelAcc: principles,
    overallAcc: v(0.55),
    perCriterion: { coherence: v(0.5), overall: v(overall) },
    counts: { coherence: { win: 1, tie: 1, loss: 1 }, overall: { win: 2, tie: 0, loss: 1 } },
    alignmentRate: grader === 'ground truth' ? none('not_applicable') : v(0.75),
    intervals: {
      overallJudgement: wil(0.2, 0.9),
      generalLevelAcc: off,
      principleLevelAcc: Object.fromEntries(Object.keys(principles).map((p) => [p, off])),
      overallAcc: off,
      perCriterion: { coherence: off, overall: wil(0.2, 0.9) },
      alignmentRate: grader === 'ground truth' ? { method: 'wilson', lower: null, upper: null, reason: 'not_applicable' } : wil(0.5, 0.9),
    },
  };
}

const leaderboard: LeaderboardReportDto = {
  studyId: 3,
  tiePolicy: 'non_win',
  bootstrap: BOOT,
  models: ['model-x'],
  graders: ['ground truth', 'judge-a'],
  rows: [lbRow('ground truth', 2 / 3, { Practice: v(0.25), Questioning: v(0.75) }), lbRow('judge-a', 1 / 3, { Practice: v(0.5) })],
  corrected: [],
  rankAgreement: [],
};

describe('leaderboard tables', () => {
  it('has one row per model and grader, a column per principle, and the tie policy on every row', () => {
    const lines = reportCsv('leaderboard', 'leaderboard', leaderboard);
    const header = cells(lines[0]);
    expect(header).toContain('principle_level_acc:Practice');
    expect(header).toContain('principle_level_acc:Questioning_reason');
    const rows = records(lines);
    expect(rows).toHaveLength(2);
    expect(
      rows.map((r) => [r.tie_policy, r.grader, r['principle_level_acc:Questioning'], r['principle_level_acc:Questioning_reason']]),
    ).toEqual([
      ['non_win', 'ground truth', '0.75', 'not_computed'],
      ['non_win', 'judge-a', '', 'no_items'],
    ]);
    expect(rows[0]).toMatchObject({ alignment_rate: '', alignment_rate_reason: 'not_applicable' });
    expect(rows[1]).toMatchObject({ alignment_rate: '0.75', alignment_rate_lower: '0.5' });
  });

  it('lists the counts and win rate of every criterion of every row', () => {
    const rows = records(reportCsv('leaderboard', 'criteria', leaderboard));
    expect(rows).toHaveLength(4);
    expect(rows[1]).toMatchObject({ grader: 'ground truth', criterion: 'overall', win: '2', tie: '0', loss: '1', win_rate_lower: '0.2' });
  });
});

const hybrid: HybridReportDto = {
  studyId: 5,
  judge: 'pandalm-7b',
  criterion: 'overall',
  target: 0.95,
  n: 999,
  accJudge: v(0.6677),
  classes: [
    { label: 'lose', predicted: 459, correct: 337, classwiseAccuracy: v(0.734), decision: 'accept', interval: wil(0.69, 0.77) },
    { label: 'win', predicted: 540, correct: 330, classwiseAccuracy: v(0.611), decision: 'review', interval: wil(0.57, 0.65) },
  ],
  unpredictedLabels: ['tie'],
  acceptedClass: 'lose',
  reviewedClasses: ['win'],
  reviewed: 540,
  accHybrid: v(0.8779),
  effortSaved: v(0.4595),
  errorsToFix: 73,
  extraReviewsExpected: 275,
  accExpectedAfter: v(0.951),
  effortSavedExpectedAfter: v(0.184),
  extraReviewsWorstCase: 410,
  effortSavedWorstCase: v(0.049),
  unjudged: 0,
  intervals: { accJudge: wil(0.63, 0.69), accHybrid: wil(0.85, 0.89), effortSaved: wil(0.42, 0.49) },
  acceptance,
};

describe('hybrid tables', () => {
  it('gives each predicted class its accuracy and decision, and the plan in one row', () => {
    const classes = records(reportCsv('hybrid', 'classes', hybrid));
    expect(classes.map((k) => [k.label, k.predicted, k.correct, k.classwise_accuracy, k.decision])).toEqual([
      ['lose', '459', '337', '0.734', 'accept'],
      ['win', '540', '330', '0.611', 'review'],
    ]);
    const [plan, ...rest] = records(reportCsv('hybrid', 'plan', hybrid));
    expect(rest).toHaveLength(0);
    expect(plan).toMatchObject({
      target: '0.95',
      accepted_class: 'lose',
      reviewed_classes: 'win',
      unpredicted_labels: 'tie',
      extra_reviews_expected: '275',
      acc_expected_after: '0.951',
      acc_expected_after_reason: '',
      effort_saved_lower: '0.42',
    });
  });

  it('writes the guaranteed acceptance beside Padó’s plan, and its strata', () => {
    const [row, ...rest] = records(reportCsv('hybrid', 'acceptance', hybrid));
    expect(rest).toHaveLength(0);
    expect(row).toMatchObject({
      judge: 'pandalm-7b',
      epsilon: '0.05',
      delta: '0.05',
      accepted_labels: 'Yes',
      accepted_share: '0.65',
      error_bound: '0.05',
      effort_saved: '0.15',
      pado_class: 'Yes',
      pado_observed_error: '0.005',
      pado_error_upper: '0.0235',
    });
    const strata = records(reportCsv('hybrid', 'strata', hybrid));
    expect(strata.map((s) => [s.label, s.n, s.errors, s.pool, s.accepted])).toEqual([
      ['Yes', '200', '1', '260', 'true'],
      ['No', '100', '30', '140', 'false'],
    ]);
  });
});

describe('table names', () => {
  it('accepts the tables of a report and nothing else', () => {
    expect(isReportTable('agreement', 'pairs')).toBe(true);
    expect(isReportTable('agreement', 'confusion')).toBe(false);
    expect(isReportTable('hybrid', 'toString')).toBe(false);
    expect(REPORT_TABLES.leaderboard).toEqual(['leaderboard', 'criteria', 'corrected', 'ranks']);
  });
});
