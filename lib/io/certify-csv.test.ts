import { describe, expect, it } from 'vitest';
import type { CertifyReportDto, RubricCertifyReportDto } from '@/lib/server/analytics/dto';
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
      "\"judge\",\"criterion\",\"target\",\"n\",\"agree\",\"unjudged\",\"alignment_rate\",\"decision\",\"decision_reason\",\"lower\",\"upper\",\"bounds_reason\",\"drift\",\"items_needed\",\"items_needed_reason\"\r\n",
      "\"gpt, \"\"fast\"\"\",\"overall\",0.8,40,33,2,0.825,,\"too_few_items\",,,\"too_few_items\",false,,\"no_items\"\r\n",
    ]);
    expect(reportCsv('certify', 'path', certify)).toEqual([
      "\"judge\",\"criterion\",\"t\",\"item\",\"settled_at\",\"agree\",\"lower\",\"upper\"\r\n",
      "\"gpt, \"\"fast\"\"\",\"overall\",1,\"i1\",\"2026-11-01T10:00:00.000Z\",1,0.1,1\r\n",
      "\"gpt, \"\"fast\"\"\",\"overall\",2,\"'=cmd\",\"2026-11-01T10:05:00.000Z\",0,,\r\n",
    ]);
    expect(reportCsv('certify', 'alt-test', certify)).toEqual([
      "\"judge\",\"criterion\",\"epsilon\",\"annotator\",\"items\",\"tested\",\"rho_judge\",\"rho_judge_reason\",\"rho_human\",\"rho_human_reason\",\"t\",\"t_reason\",\"p_value\",\"p_value_reason\",\"p_adjusted_by\",\"p_adjusted_by_reason\",\"judge_wins\",\"winning_rate\",\"advantage_probability\",\"judge_can_replace\"\r\n",
      "\"gpt, \"\"fast\"\"\",\"overall\",0.15,\"ann\",48,true,0.75,,0.5,,2.5,,0.01,,0.02,,true,1,0.7,true\r\n",
      "\"gpt, \"\"fast\"\"\",\"overall\",0.15,\"bob\",4,false,,\"no_items\",,\"no_items\",,\"no_items\",,\"no_items\",,\"no_items\",,1,0.7,true\r\n",
    ]);
  });

  it('writes the rubric tables with the sample and lenient folding after the judge on every row', () => {
    expect(reportCsv('rubric-certify', 'decision', rubric)).toEqual([
      "\"judge\",\"sample\",\"lenient\",\"criterion\",\"target\",\"n\",\"agree\",\"unjudged\",\"alignment_rate\",\"decision\",\"decision_reason\",\"lower\",\"upper\",\"bounds_reason\",\"drift\",\"items_needed\",\"items_needed_reason\"\r\n",
      "\"gpt, \"\"fast\"\"\",2,true,\"overall\",0.8,40,33,2,0.825,\"certified\",,0.81,0.9,,true,0,\r\n",
    ]);
    expect(reportCsv('rubric-certify', 'path', rubric)).toEqual([
      "\"judge\",\"sample\",\"lenient\",\"criterion\",\"t\",\"item\",\"settled_at\",\"agree\",\"lower\",\"upper\"\r\n",
      "\"gpt, \"\"fast\"\"\",2,true,\"overall\",1,\"i1\",\"2026-11-01T10:00:00.000Z\",1,0.1,1\r\n",
      "\"gpt, \"\"fast\"\"\",2,true,\"overall\",2,\"'=cmd\",\"2026-11-01T10:05:00.000Z\",0,,\r\n",
    ]);
    expect(reportCsv('rubric-certify', 'alt-test', rubric)).toEqual([
      "\"judge\",\"sample\",\"lenient\",\"criterion\",\"epsilon\",\"annotator\",\"items\",\"tested\",\"rho_judge\",\"rho_judge_reason\",\"rho_human\",\"rho_human_reason\",\"t\",\"t_reason\",\"p_value\",\"p_value_reason\",\"p_adjusted_by\",\"p_adjusted_by_reason\",\"judge_wins\",\"winning_rate\",\"advantage_probability\",\"judge_can_replace\"\r\n",
      "\"gpt, \"\"fast\"\"\",2,true,\"overall\",0.15,\"ann\",48,true,0.75,,0.5,,2.5,,0.01,,0.02,,true,1,0.7,true\r\n",
      "\"gpt, \"\"fast\"\"\",2,true,\"overall\",0.15,\"bob\",4,false,,\"no_items\",,\"no_items\",,\"no_items\",,\"no_items\",,\"no_items\",,1,0.7,true\r\n",
    ]);
  });
});
