import { describe, expect, it } from 'vitest';
import type { CertifyReportDto, CorrectedCellDto, LeaderboardReportDto, RubricCertifyReportDto } from '@/lib/server/analytics/dto';
import { REPORT_TABLES } from '@/lib/server/analytics/dto';
import { reportCsv } from './report-csv';

/*
 * The certification's CSV downloads, byte for byte: the headers users read by name, every cell's place, a missing
 * value's reason. Pinned when the tables became column specs shared by both kinds (decision 0026), so that fold
 * cannot have moved a column.
 */

const certify: CertifyReportDto = {
  studyId: 3,
  judge: 'gpt, "fast"',
  criterion: 'overall',
  groundTruthRule: 'adjudicated',
  target: 0.8,
  alpha: 0.05,
  n: 40,
  agree: 33,
  unjudged: 2,
  alignmentRate: { value: 0.825 },
  decision: null,
  decisionReason: 'too_few_items',
  bounds: { method: 'confidence_sequence', lower: null, upper: null, reason: 'too_few_items' as never },
  drift: false,
  itemsNeeded: { value: null, reason: 'no_items' },
  pathStep: 1,
  path: [
    { t: 1, item: 'i1', settledAt: '2026-11-01T10:00:00.000Z', agree: 1, lower: 0.1, upper: 1 },
    { t: 2, item: '=cmd', settledAt: '2026-11-01T10:05:00.000Z', agree: 0, lower: null, upper: null },
  ],
  altTest: {
    epsilon: 0.15,
    q: 0.05,
    minReviewers: 3,
    minItemsPerAnnotator: 30,
    criteria: [
      {
        criterion: 'overall',
        name: 'Overall',
        itemsWithEnoughReviewers: 50,
        itemsUsed: 48,
        annotatorsTested: 1,
        winningRate: { value: 1 },
        advantageProbability: { value: 0.7 },
        judgeCanReplace: true,
        annotators: [
          {
            annotator: 'ann',
            items: 48,
            tested: true,
            rhoJudge: { value: 0.75 },
            rhoHuman: { value: 0.5 },
            t: { value: 2.5 },
            pValue: { value: 0.01 },
            pAdjusted: { value: 0.02 },
            judgeWins: true,
          },
          {
            annotator: 'bob',
            items: 4,
            tested: false,
            rhoJudge: { value: null, reason: 'no_items' },
            rhoHuman: { value: null, reason: 'no_items' },
            t: { value: null, reason: 'no_items' },
            pValue: { value: null, reason: 'no_items' },
            pAdjusted: { value: null, reason: 'no_items' },
            judgeWins: null,
          },
        ],
      },
    ],
  },
};

const rubric: RubricCertifyReportDto = {
  ...certify,
  kind: 'rubric',
  sample: 2,
  lenient: true,
  decision: 'certified',
  decisionReason: undefined,
  bounds: { method: 'confidence_sequence', lower: 0.81, upper: 0.9 },
  drift: true,
  itemsNeeded: { value: 0 },
};

describe('certification CSV', () => {
  it('lists the same tables for both kinds', () => {
    expect(REPORT_TABLES.certify).toEqual(['decision', 'path', 'alt-test']);
    expect(REPORT_TABLES['rubric-certify']).toEqual(['decision', 'path', 'alt-test']);
  });

  it('writes the pairwise decision, path and alternative annotator test', () => {
    expect(reportCsv('certify', 'decision', certify)).toEqual([
      '"judge","criterion","target","n","agree","unjudged","alignment_rate","decision","decision_reason","lower","upper","bounds_reason","drift","items_needed","items_needed_reason","estimator","estimator_labels","labels_pending","active_alignment_rate","active_lower","active_upper"\r\n',
      '"gpt, ""fast""","overall",0.8,40,33,2,0.825,,"too_few_items",,,"too_few_items",false,,"no_items","confidence_sequence",40,,,,\r\n',
    ]);
    expect(reportCsv('certify', 'path', certify)).toEqual([
      '"judge","criterion","t","item","settled_at","agree","lower","upper"\r\n',
      '"gpt, ""fast""","overall",1,"i1","2026-11-01T10:00:00.000Z",1,0.1,1\r\n',
      '"gpt, ""fast""","overall",2,"\'=cmd","2026-11-01T10:05:00.000Z",0,,\r\n',
    ]);
    expect(reportCsv('certify', 'alt-test', certify)).toEqual([
      '"judge","criterion","epsilon","annotator","items","tested","rho_judge","rho_judge_reason","rho_human","rho_human_reason","t","t_reason","p_value","p_value_reason","p_adjusted_by","p_adjusted_by_reason","judge_wins","winning_rate","advantage_probability","judge_can_replace"\r\n',
      '"gpt, ""fast""","overall",0.15,"ann",48,true,0.75,,0.5,,2.5,,0.01,,0.02,,true,1,0.7,true\r\n',
      '"gpt, ""fast""","overall",0.15,"bob",4,false,,"no_items",,"no_items",,"no_items",,"no_items",,"no_items",,1,0.7,true\r\n',
    ]);
  });

  it('writes the rubric tables with the sample and lenient folding after the judge on every row', () => {
    expect(reportCsv('rubric-certify', 'decision', rubric)).toEqual([
      '"judge","sample","lenient","criterion","target","n","agree","unjudged","alignment_rate","decision","decision_reason","lower","upper","bounds_reason","drift","items_needed","items_needed_reason","estimator","estimator_labels","labels_pending","active_alignment_rate","active_lower","active_upper"\r\n',
      '"gpt, ""fast""",2,true,"overall",0.8,40,33,2,0.825,"certified",,0.81,0.9,,true,0,,"confidence_sequence",40,,,,\r\n',
    ]);
    expect(reportCsv('rubric-certify', 'path', rubric)).toEqual([
      '"judge","sample","lenient","criterion","t","item","settled_at","agree","lower","upper"\r\n',
      '"gpt, ""fast""",2,true,"overall",1,"i1","2026-11-01T10:00:00.000Z",1,0.1,1\r\n',
      '"gpt, ""fast""",2,true,"overall",2,"\'=cmd","2026-11-01T10:05:00.000Z",0,,\r\n',
    ]);
    expect(reportCsv('rubric-certify', 'alt-test', rubric)).toEqual([
      '"judge","sample","lenient","criterion","epsilon","annotator","items","tested","rho_judge","rho_judge_reason","rho_human","rho_human_reason","t","t_reason","p_value","p_value_reason","p_adjusted_by","p_adjusted_by_reason","judge_wins","winning_rate","advantage_probability","judge_can_replace"\r\n',
      '"gpt, ""fast""",2,true,"overall",0.15,"ann",48,true,0.75,,0.5,,2.5,,0.01,,0.02,,true,1,0.7,true\r\n',
      '"gpt, ""fast""",2,true,"overall",0.15,"bob",4,false,,"no_items",,"no_items",,"no_items",,"no_items",,"no_items",,1,0.7,true\r\n',
    ]);
  });
});

/** An active draw's bookkeeping as the JSON carries it (`active`): 12 drawn items labelled, 20 from before, 3 pending. */
const draw = { pool: 100, drawn: 15, drawnLabelled: 12, pending: 3, labelledBefore: 20, budget: 0.2, tau: 0.5, source: 'orders' as const };

describe('certification CSV under an active draw (issue 28)', () => {
  it('says on the decision row which estimator decided, on how many labels, and the weighted estimate it used', () => {
    const active: CertifyReportDto = {
      ...certify,
      decision: 'keep_labelling',
      decisionReason: undefined,
      estimator: 'active_ipw',
      active: {
        ...draw,
        alignmentRate: { value: 0.7 },
        interval: { method: 'normal', lower: 0.55, upper: 0.85 },
        decision: 'keep_labelling',
      },
    };
    const [header, row] = reportCsv('certify', 'decision', active);
    const cells = Object.fromEntries(
      header
        .trim()
        .split(',')
        .map((h, k) => [JSON.parse(h), row.trim().split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/)[k]]),
    );
    expect(cells).toMatchObject({
      decision: '"keep_labelling"',
      estimator: '"active_ipw"',
      estimator_labels: '32',
      labels_pending: '3',
      active_alignment_rate: '0.7',
      active_lower: '0.55',
      active_upper: '0.85',
    });
    // The sequence's own columns still say what the sequence says.
    expect(cells).toMatchObject({ n: '40', alignment_rate: '0.825' });
  });

  it('says on every corrected cell of the leaderboard which estimator gave it and on how many labels', () => {
    const base: Omit<CorrectedCellDto, 'estimator'> = {
      model: 'm',
      criterion: 'overall',
      labelled: 40,
      unlabelled: 60,
      labelledUnjudged: 0,
      humanOnly: { value: 0.8 },
      judgeOnly: { value: 0.9 },
      corrected: { value: 0.75 },
      lambda: { value: 0.5 },
      effectiveLabels: { value: 50 },
      intervals: {
        humanOnly: { method: 'normal', lower: 0.7, upper: 0.9 },
        judgeOnly: { method: 'normal', lower: 0.85, upper: 0.95 },
        corrected: { method: 'normal', lower: 0.65, upper: 0.85 },
      },
      caution: null,
    };
    const lb = {
      studyId: 3,
      tiePolicy: 'half',
      corrected: [
        {
          judge: 'gpt',
          cells: [
            { ...base, estimator: 'ppi++' },
            { ...base, model: 'n', estimator: 'active_ipw', active: draw, caution: 'labels_pending' },
          ],
        },
      ],
      rankAgreement: [],
      rows: [],
    } as unknown as LeaderboardReportDto;
    const lines = reportCsv('leaderboard', 'corrected', lb);
    expect(lines[0]).toMatch(/"caution","estimator","estimator_labels","labels_pending"\r\n$/);
    expect(lines[1]).toMatch(/,"ppi\+\+",40,\r\n$/);
    expect(lines[2]).toMatch(/"labels_pending","active_ipw",32,3\r\n$/);
  });
});
