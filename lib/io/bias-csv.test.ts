import { describe, expect, it } from 'vitest';
import type { BiasReportDto, FirstPreferenceDto, JudgeCalibrationDto, RubricBiasReportDto } from '@/lib/server/analytics/dto';
import { REPORT_TABLES } from '@/lib/server/analytics/dto';
import { reportCsv } from './report-csv';

/*
 * The bias reports' CSV downloads, byte for byte: the headers users read by name, every cell's place, a missing
 * value's reason. Pinned when the tables became column specs (decision 0026), so that move cannot have shifted a
 * column.
 */

const first = (over: Partial<FirstPreferenceDto> = {}): FirstPreferenceDto => ({
  count: 12,
  decisive: 20,
  rate: { value: 0.6 },
  pValue: { value: 0.5034 },
  interval: { method: 'wilson', lower: 0.39, upper: 0.78 },
  ...over,
});

const empty = { value: null, reason: 'empty_bin' } as const;
/** A judge with two samples per item: confidences ½ and 1 only. */
const calibrated: JudgeCalibrationDto = {
  judge: 'gpt',
  criterion: 'overall',
  source: 'samples',
  n: 12,
  samplesMin: 2,
  samplesMax: 2,
  bins: 2,
  accuracy: { value: 0.5 },
  meanConfidence: { value: 0.75 },
  brierTopLabel: { value: 0.25 },
  brierMulticlass: { value: 0.625 },
  ece: { value: 0.25 },
  adaptiveEce: { value: 0.25 },
  reliability: [
    { bin: 1, lower: 0, upper: 0.5, n: 6, meanConfidence: { value: 0.5 }, accuracy: { value: 0.5 }, gap: { value: 0 } },
    { bin: 2, lower: 0.5, upper: 1, n: 6, meanConfidence: { value: 1 }, accuracy: { value: 0.5 }, gap: { value: -0.5 } },
  ],
  adaptiveReliability: [
    { bin: 1, lower: 0.5, upper: 0.75, n: 6, meanConfidence: { value: 0.5 }, accuracy: { value: 0.5 }, gap: { value: 0 } },
    { bin: 2, lower: 0.75, upper: 1, n: 0, meanConfidence: empty, accuracy: empty, gap: empty },
  ],
};

const bias: BiasReportDto = {
  calibration: [calibrated],
  uncalibrated: ['pandalm-7b'],
  studyId: 4,
  judgePosition: [
    {
      judge: 'gpt, "fast"',
      criterion: 'overall',
      items: 30,
      itemsBothOrders: 25,
      flips: 5,
      reversals: 1,
      flipRate: { value: 0.2 },
      reversalRate: { value: 0.04 },
      firstPreferred: first(),
    },
    {
      judge: '=cmd',
      criterion: 'c1',
      items: 3,
      itemsBothOrders: 0,
      flips: 0,
      reversals: 0,
      flipRate: { value: null, reason: 'no_items' },
      reversalRate: { value: null, reason: 'no_items' },
      firstPreferred: first({
        count: 0,
        decisive: 0,
        rate: { value: null, reason: 'no_items' },
        pValue: { value: null, reason: 'no_items' },
        interval: { method: 'wilson', lower: null, upper: null, reason: 'no_items' },
      }),
    },
  ],
  humanPosition: [
    { criterion: 'overall', reviewer: 'ann', verdicts: 40, firstPreferred: first() },
    { criterion: 'overall', reviewer: null, verdicts: 80, firstPreferred: first({ count: 30, decisive: 50 }) },
  ],
  length: [
    {
      grader: 'human',
      criterion: 'overall',
      n: 50,
      nDecisive: 44,
      slope: { value: 0.31 },
      slopeSe: { value: 0.12 },
      pValue: { value: 0.011 },
      intervals: { slope: { method: 'wald', lower: 0.07, upper: 0.55 } },
      bins: [
        {
          bin: 1,
          lowerEdge: -3.2,
          upperEdge: -1.1,
          n: 10,
          wins: 3,
          ties: 2,
          losses: 5,
          winShare: { value: 0.3 },
          winShareTiesHalf: { value: 0.4 },
          winShareExclTies: { value: 0.375 },
        },
        {
          bin: 2,
          lowerEdge: -1.1,
          upperEdge: 0,
          n: 0,
          wins: 0,
          ties: 0,
          losses: 0,
          winShare: { value: null, reason: 'no_items' },
          winShareTiesHalf: { value: null, reason: 'no_items' },
          winShareExclTies: { value: null, reason: 'no_items' },
        },
      ],
    },
    {
      grader: 'gpt',
      criterion: 'overall',
      n: 0,
      nDecisive: 0,
      slope: { value: null, reason: 'no_items' },
      slopeSe: { value: null, reason: 'no_items' },
      pValue: { value: null, reason: 'no_items' },
      intervals: { slope: { method: 'wald', lower: null, upper: null, reason: 'no_items' } },
      bins: null,
    },
  ],
};

const rubric: RubricBiasReportDto = {
  calibration: [],
  uncalibrated: [],
  studyId: 6,
  kind: 'rubric',
  sample: 2,
  samples: [1, 2],
  lenient: true,
  dimensions: [],
  leniency: [
    {
      judge: 'gpt, "fast"',
      criterion: 'mistake_identification',
      n: 90,
      judgeDesired: 60,
      groundTruthDesired: 50,
      judgeShare: { value: 0.667 },
      groundTruthShare: { value: 0.556 },
      difference: { value: 0.111 },
      judgeOnly: 15,
      groundTruthOnly: 5,
      judgeMoreLenient: {
        count: 15,
        discordant: 20,
        rate: { value: 0.75 },
        pValue: { value: 0.041 },
        interval: { method: 'wilson', lower: 0.53, upper: 0.89 },
      },
    },
    {
      judge: 'gpt, "fast"',
      criterion: 'guidance',
      n: 90,
      judgeDesired: 40,
      groundTruthDesired: 40,
      judgeShare: { value: 0.444 },
      groundTruthShare: { value: 0.444 },
      difference: { value: 0 },
      judgeOnly: 0,
      groundTruthOnly: 0,
      judgeMoreLenient: {
        count: 0,
        discordant: 0,
        rate: { value: null, reason: 'no_items' },
        pValue: { value: null, reason: 'no_items' },
        interval: { method: 'wilson', lower: null, upper: null, reason: 'no_items' },
      },
    },
  ],
  length: [
    {
      grader: 'human',
      criterion: 'guidance',
      n: 80,
      desired: 30,
      slope: { value: -0.2 },
      slopeSe: { value: 0.1 },
      pValue: { value: 0.045 },
      intervals: { slope: { method: 'wald', lower: null, upper: null, reason: 'not_computed' } },
      bins: [
        { bin: 1, lowerEdge: 2.1, upperEdge: 4, n: 16, desired: 8, share: { value: 0.5 } },
        { bin: 2, lowerEdge: 4, upperEdge: 5, n: 0, desired: 0, share: { value: null, reason: 'no_items' } },
      ],
    },
  ],
};

describe('bias CSV', () => {
  it('lists the tables of each kind', () => {
    expect(REPORT_TABLES.bias).toEqual(['judge-position', 'human-position', 'length', 'calibration', 'reliability']);
    expect(REPORT_TABLES['rubric-bias']).toEqual(['leniency', 'length', 'calibration', 'reliability']);
  });

  it('writes the pairwise position and length tables', () => {
    expect(reportCsv('bias', 'judge-position', bias)).toEqual([
      '"judge","criterion","items","items_both_orders","flips","reversals","flip_rate","flip_rate_reason","reversal_rate","reversal_rate_reason","first_preferred","decisive","first_preferred_rate","first_preferred_rate_lower","first_preferred_rate_upper","first_preferred_rate_reason","binomial_p_value","binomial_p_value_reason"\r\n',
      '"gpt, ""fast""","overall",30,25,5,1,0.2,,0.04,,12,20,0.6,0.39,0.78,,0.5034,\r\n',
      '"\'=cmd","c1",3,0,0,0,,"no_items",,"no_items",0,0,,,,"no_items",,"no_items"\r\n',
    ]);
    expect(reportCsv('bias', 'human-position', bias)).toEqual([
      '"criterion","reviewer","verdicts","first_preferred","decisive","first_preferred_rate","first_preferred_rate_lower","first_preferred_rate_upper","first_preferred_rate_reason","binomial_p_value","binomial_p_value_reason"\r\n',
      '"overall","ann",40,12,20,0.6,0.39,0.78,,0.5034,\r\n',
      '"overall","(all reviewers)",80,30,50,0.6,0.39,0.78,,0.5034,\r\n',
    ]);
    expect(reportCsv('bias', 'length', bias)).toEqual([
      '"grader","criterion","n","n_decisive","slope","slope_lower","slope_upper","slope_reason","slope_se","slope_se_reason","p_value","p_value_reason","bin","lower_edge","upper_edge","bin_n","wins","ties","losses","win_share","win_share_reason","win_share_ties_half","win_share_ties_half_reason","win_share_excl_ties","win_share_excl_ties_reason"\r\n',
      '"human","overall",50,44,0.31,0.07,0.55,,0.12,,0.011,,1,-3.2,-1.1,10,3,2,5,0.3,,0.4,,0.375,\r\n',
      '"human","overall",50,44,0.31,0.07,0.55,,0.12,,0.011,,2,-1.1,0,0,0,0,0,,"no_items",,"no_items",,"no_items"\r\n',
    ]);
  });

  it('writes the rubric leniency and length tables with the sample and lenient folding on every row', () => {
    expect(reportCsv('rubric-bias', 'leniency', rubric)).toEqual([
      '"judge","sample","lenient","dimension","n","judge_desired","ground_truth_desired","judge_share","ground_truth_share","difference","judge_only","ground_truth_only","judge_more_lenient","discordant","judge_more_lenient_rate","judge_more_lenient_rate_lower","judge_more_lenient_rate_upper","judge_more_lenient_rate_reason","mcnemar_exact_p_value","mcnemar_exact_p_value_reason"\r\n',
      '"gpt, ""fast""",2,true,"mistake_identification",90,60,50,0.667,0.556,0.111,15,5,15,20,0.75,0.53,0.89,,0.041,\r\n',
      '"gpt, ""fast""",2,true,"guidance",90,40,40,0.444,0.444,0,0,0,0,0,,,,"no_items",,"no_items"\r\n',
    ]);
    expect(reportCsv('rubric-bias', 'length', rubric)).toEqual([
      '"grader","sample","lenient","dimension","n","desired","slope","slope_lower","slope_upper","slope_reason","slope_se","slope_se_reason","p_value","p_value_reason","bin","lower_edge","upper_edge","bin_n","bin_desired","desired_share","desired_share_reason"\r\n',
      '"human",2,true,"guidance",80,30,-0.2,,,"not_computed",0.1,,0.045,,1,2.1,4,16,8,0.5,\r\n',
      '"human",2,true,"guidance",80,30,-0.2,,,"not_computed",0.1,,0.045,,2,4,5,0,0,,"no_items"\r\n',
    ]);
  });

  it('writes the calibration of judges with several samples and their reliability bins, equal width then equal mass', () => {
    expect(reportCsv('bias', 'calibration', bias)).toEqual([
      '"judge","criterion","n","samples_min","samples_max","accuracy","accuracy_reason","mean_confidence","mean_confidence_reason","brier_top_label","brier_top_label_reason","brier_multiclass","brier_multiclass_reason","ece","ece_reason","adaptive_ece","adaptive_ece_reason"\r\n',
      '"gpt","overall",12,2,2,0.5,,0.75,,0.25,,0.625,,0.25,,0.25,\r\n',
    ]);
    const rows = reportCsv('bias', 'reliability', bias);
    expect(rows[0]).toBe(
      '"judge","criterion","binning","bin","lower","upper","bin_n","mean_confidence","mean_confidence_reason","accuracy","accuracy_reason","gap","gap_reason"\r\n',
    );
    expect(rows.slice(1)).toEqual([
      '"gpt","overall","equal_width",1,0,0.5,6,0.5,,0.5,,0,\r\n',
      '"gpt","overall","equal_width",2,0.5,1,6,1,,0.5,,-0.5,\r\n',
      '"gpt","overall","equal_mass",1,0.5,0.75,6,0.5,,0.5,,0,\r\n',
      '"gpt","overall","equal_mass",2,0.75,1,0,,"empty_bin",,"empty_bin",,"empty_bin"\r\n',
    ]);
  });
});
