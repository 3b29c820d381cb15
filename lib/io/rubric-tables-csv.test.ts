import { describe, expect, it } from 'vitest';
import type { RubricAlignmentReportDto, RubricLeaderboardReportDto, RubricSummaryDto } from '@/lib/server/analytics/dto';
import { REPORT_TABLES } from '@/lib/server/analytics/dto';
import { reportCsv } from './report-csv';

/*
 * A rubric study's alignment and leaderboard CSV downloads, byte for byte: pinned when their tables became column
 * specs (decision 0026), so that move cannot have shifted a column, a reason or a scope.
 */

const summary = (over: Partial<RubricSummaryDto> = {}): RubricSummaryDto => ({
  n: 20,
  agree: 15,
  alignmentRate: { value: 0.75 },
  macroF1: { value: 0.6 },
  cohenKappa: { value: 0.5 },
  labels: ['No', 'To some extent', 'Yes'],
  confusion: [
    [3, 1, 0],
    [1, 2, 1],
    [0, 2, 10],
  ],
  classwise: [
    {
      label: 'Yes',
      predicted: 11,
      correct: 10,
      accuracy: { value: 10 / 11 },
      support: 12,
      recall: { value: 10 / 12 },
      intervals: { accuracy: { method: 'wilson', lower: 0.6, upper: 0.98 }, recall: { method: 'wilson', lower: 0.55, upper: 0.95 } },
    },
    {
      label: 'No',
      predicted: 0,
      correct: 0,
      accuracy: { value: null, reason: 'empty_class' },
      support: 4,
      recall: { value: 0 },
      intervals: {
        accuracy: { method: 'wilson', lower: null, upper: null, reason: 'empty_class' },
        recall: { method: 'wilson', lower: 0, upper: 0.49 },
      },
    },
  ],
  intervals: {
    alignmentRate: { method: 'wilson', lower: 0.53, upper: 0.89 },
    cohenKappa: { method: 'bootstrap', lower: null, upper: null, reason: 'not_computed' },
  },
  ...over,
});

const pooled = summary({ labels: null, confusion: null, classwise: [], cohenKappa: { value: null, reason: 'mixed_label_sets' } });

const alignment: RubricAlignmentReportDto = {
  studyId: 9,
  kind: 'rubric',
  judge: 'gpt, "fast"',
  sample: 2,
  samples: [1, 2],
  groundTruthRule: 'adjudicated',
  bootstrap: { replicates: 0, seed: 7, level: 0.95, quantile: 'linear' },
  dimensions: [],
  groundTruth: { labels: 40, incompleteItems: 0 },
  unparsedVerdicts: 0,
  overall: pooled,
  byCriterion: [
    {
      ...summary(),
      lenient: summary({
        n: 20,
        agree: 18,
        labels: ['No', 'Yes'],
        confusion: [
          [2, 0],
          [2, 16],
        ],
        classwise: [],
      }),
      criterion: 'guidance',
      name: 'Guidance',
      unjudged: 1,
    },
  ],
  byModel: [{ ...pooled, model: '=tutor', byCriterion: [{ ...summary(), criterion: 'guidance', name: 'Guidance' }] }],
  unjudged: 1,
};

const leaderboard: RubricLeaderboardReportDto = {
  studyId: 9,
  kind: 'rubric',
  sample: 1,
  dimensions: [
    { id: 'guidance', name: 'Guidance', labels: ['No', 'To some extent', 'Yes'], desired: 'Yes', lenient: { 'To some extent': 'Yes' } },
    { id: 'tone', name: 'Tone', labels: ['Offensive', 'Neutral', 'Encouraging'], desired: 'Encouraging' },
  ],
  models: ['GPT-4'],
  graders: ['ground truth', 'gpt'],
  rows: [
    {
      model: 'GPT-4',
      grader: 'ground truth',
      items: 10,
      perCriterion: { guidance: { value: 0.4 }, tone: { value: null, reason: 'no_items' } },
      lenient: { guidance: { value: 0.7 } },
      counts: { guidance: { n: 10, desired: 4, desiredLenient: 7 }, tone: { n: 0, desired: 0 } },
      alignmentRate: { value: null, reason: 'not_applicable' },
      intervals: {
        perCriterion: {
          guidance: { method: 'wilson', lower: 0.17, upper: 0.69 },
          tone: { method: 'wilson', lower: null, upper: null, reason: 'no_items' },
        },
        lenient: { guidance: { method: 'wilson', lower: 0.4, upper: 0.89 } },
        alignmentRate: { method: 'wilson', lower: null, upper: null, reason: 'not_applicable' },
      },
    },
  ],
  corrected: [
    {
      judge: 'gpt',
      cells: [
        {
          model: 'GPT-4',
          criterion: 'guidance',
          lenient: true,
          labelled: 10,
          unlabelled: 90,
          labelledUnjudged: 0,
          humanOnly: { value: 0.7 },
          judgeOnly: { value: 0.65 },
          corrected: { value: 0.69 },
          lambda: { value: 0.8 },
          effectiveLabels: { value: null, reason: 'no_items' },
          intervals: {
            humanOnly: { method: 'wilson', lower: 0.4, upper: 0.89 },
            judgeOnly: { method: 'wilson', lower: 0.55, upper: 0.74 },
            corrected: { method: 'normal', lower: 0.5, upper: 0.88 },
          },
          caution: 'few_labelled_items',
        },
        {
          model: 'GPT-4',
          criterion: 'tone',
          lenient: false,
          labelled: 0,
          unlabelled: 90,
          labelledUnjudged: 0,
          humanOnly: { value: null, reason: 'no_items' },
          judgeOnly: { value: 0.5 },
          corrected: { value: null, reason: 'no_items' },
          lambda: { value: null, reason: 'no_items' },
          effectiveLabels: { value: null, reason: 'no_items' },
          intervals: {
            humanOnly: { method: 'wilson', lower: null, upper: null, reason: 'no_items' },
            judgeOnly: { method: 'wilson', lower: 0.4, upper: 0.6 },
            corrected: { method: 'normal', lower: null, upper: null, reason: 'no_items' },
          },
          caution: null,
        },
      ],
    },
  ],
  rankAgreement: [],
};

describe('rubric alignment and leaderboard CSV', () => {
  it('lists their tables', () => {
    expect(REPORT_TABLES['rubric-alignment']).toEqual(['summaries', 'classwise', 'confusion']);
    expect(REPORT_TABLES['rubric-leaderboard']).toEqual(['leaderboard', 'corrected']);
  });

  it('writes every alignment summary, its class-wise accuracy and confusion counts under their scope', () => {
    expect(reportCsv('rubric-alignment', 'summaries', alignment)).toEqual([
      '"judge","sample","tutor","dimension","scoring","n","agree","accuracy","accuracy_lower","accuracy_upper","accuracy_reason","macro_f1","macro_f1_reason","cohen_kappa","cohen_kappa_lower","cohen_kappa_upper","cohen_kappa_reason"\r\n',
      '"gpt, ""fast""",2,"all","all","strict",20,15,0.75,0.53,0.89,,0.6,,,,,"mixed_label_sets"\r\n',
      '"gpt, ""fast""",2,"all","guidance","strict",20,15,0.75,0.53,0.89,,0.6,,0.5,,,"not_computed"\r\n',
      '"gpt, ""fast""",2,"all","guidance","lenient",20,18,0.75,0.53,0.89,,0.6,,0.5,,,"not_computed"\r\n',
      '"gpt, ""fast""",2,"\'=tutor","all","strict",20,15,0.75,0.53,0.89,,0.6,,,,,"mixed_label_sets"\r\n',
      '"gpt, ""fast""",2,"\'=tutor","guidance","strict",20,15,0.75,0.53,0.89,,0.6,,0.5,,,"not_computed"\r\n',
    ]);
    expect(reportCsv('rubric-alignment', 'classwise', alignment)).toEqual([
      '"judge","sample","tutor","dimension","scoring","label","predicted","correct","classwise_accuracy","classwise_accuracy_lower","classwise_accuracy_upper","classwise_accuracy_reason","support","recall","recall_lower","recall_upper","recall_reason"\r\n',
      '"gpt, ""fast""",2,"all","guidance","strict","Yes",11,10,0.9090909090909091,0.6,0.98,,12,0.8333333333333334,0.55,0.95,\r\n',
      '"gpt, ""fast""",2,"all","guidance","strict","No",0,0,,,,"empty_class",4,0,0,0.49,\r\n',
      '"gpt, ""fast""",2,"\'=tutor","guidance","strict","Yes",11,10,0.9090909090909091,0.6,0.98,,12,0.8333333333333334,0.55,0.95,\r\n',
      '"gpt, ""fast""",2,"\'=tutor","guidance","strict","No",0,0,,,,"empty_class",4,0,0,0.49,\r\n',
    ]);
    expect(reportCsv('rubric-alignment', 'confusion', alignment)).toEqual([
      '"judge","sample","tutor","dimension","scoring","ground_truth","judge","count"\r\n',
      '"gpt, ""fast""",2,"all","guidance","strict","No","No",3\r\n',
      '"gpt, ""fast""",2,"all","guidance","strict","No","To some extent",1\r\n',
      '"gpt, ""fast""",2,"all","guidance","strict","No","Yes",0\r\n',
      '"gpt, ""fast""",2,"all","guidance","strict","To some extent","No",1\r\n',
      '"gpt, ""fast""",2,"all","guidance","strict","To some extent","To some extent",2\r\n',
      '"gpt, ""fast""",2,"all","guidance","strict","To some extent","Yes",1\r\n',
      '"gpt, ""fast""",2,"all","guidance","strict","Yes","No",0\r\n',
      '"gpt, ""fast""",2,"all","guidance","strict","Yes","To some extent",2\r\n',
      '"gpt, ""fast""",2,"all","guidance","strict","Yes","Yes",10\r\n',
      '"gpt, ""fast""",2,"all","guidance","lenient","No","No",2\r\n',
      '"gpt, ""fast""",2,"all","guidance","lenient","No","Yes",0\r\n',
      '"gpt, ""fast""",2,"all","guidance","lenient","Yes","No",2\r\n',
      '"gpt, ""fast""",2,"all","guidance","lenient","Yes","Yes",16\r\n',
      '"gpt, ""fast""",2,"\'=tutor","guidance","strict","No","No",3\r\n',
      '"gpt, ""fast""",2,"\'=tutor","guidance","strict","No","To some extent",1\r\n',
      '"gpt, ""fast""",2,"\'=tutor","guidance","strict","No","Yes",0\r\n',
      '"gpt, ""fast""",2,"\'=tutor","guidance","strict","To some extent","No",1\r\n',
      '"gpt, ""fast""",2,"\'=tutor","guidance","strict","To some extent","To some extent",2\r\n',
      '"gpt, ""fast""",2,"\'=tutor","guidance","strict","To some extent","Yes",1\r\n',
      '"gpt, ""fast""",2,"\'=tutor","guidance","strict","Yes","No",0\r\n',
      '"gpt, ""fast""",2,"\'=tutor","guidance","strict","Yes","To some extent",2\r\n',
      '"gpt, ""fast""",2,"\'=tutor","guidance","strict","Yes","Yes",10\r\n',
    ]);
  });

  it('writes the shares per tutor, grader and dimension, and the judge-corrected shares', () => {
    expect(reportCsv('rubric-leaderboard', 'leaderboard', leaderboard)).toEqual([
      '"tutor","grader","dimension","n","desired","share","share_lower","share_upper","share_reason","desired_lenient","share_lenient","share_lenient_lower","share_lenient_upper","share_lenient_reason"\r\n',
      '"GPT-4","ground truth","guidance",10,4,0.4,0.17,0.69,,7,0.7,0.4,0.89,\r\n',
      '"GPT-4","ground truth","tone",0,0,,,,"no_items",,,,,"not_applicable"\r\n',
    ]);
    expect(reportCsv('rubric-leaderboard', 'corrected', leaderboard)).toEqual([
      '"judge","tutor","dimension","scoring","labelled","unlabelled","labelled_unjudged","human_only","human_only_lower","human_only_upper","human_only_reason","judge_only","judge_only_lower","judge_only_upper","judge_only_reason","corrected","corrected_lower","corrected_upper","corrected_reason","lambda","lambda_reason","effective_labels","effective_labels_reason","caution","estimator","estimator_labels","labels_pending"\r\n',
      '"gpt","GPT-4","guidance","lenient",10,90,0,0.7,0.4,0.89,,0.65,0.55,0.74,,0.69,0.5,0.88,,0.8,,,"no_items","few_labelled_items","ppi++",10,\r\n',
      '"gpt","GPT-4","tone","strict",0,90,0,,,,"no_items",0.5,0.4,0.6,,,,,"no_items",,"no_items",,"no_items","","ppi++",0,\r\n',
    ]);
  });
});
