import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { publicDataPath } from '../public-data';
import { rubricItemRecords, rubricJudgeRecords } from '@/lib/kinds/rubric/records';
import { MRBENCH_V3_CATALOG } from '@/lib/validation/rubric-catalogs';
import type { RubricJudgeLine } from '@/lib/validation/rubric';
import { EVALKIT_AUTO_JUDGE, evalkitDefaultJudge, evalkitJudgeNames } from './aitutor-evalkit';
import { useTempDir } from '@/test/temp-tree';

const kit = (name: string) => publicDataPath('aitutor-evalkit', name);
const tmp = useTempDir('concord-evalkit-');
const sample = kit('test_sample.json');
const PROMETHEUS = 'prometheus-eval/prometheus-7b-v2.0';

const ok = <T>(rs: Iterable<{ ok: boolean; value?: T }>) => Array.from(rs).flatMap((r) => (r.ok ? [r.value as T] : []));

describe('AITutor-EvalKit sample → items', () => {
  const results = Array.from(rubricItemRecords(sample, 'aitutor-evalkit'));
  const items = ok<{ id: string; group?: string; history: unknown[] }>(results);

  it('gives 85 items in 10 groups', () => {
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(items).toHaveLength(85);
    expect(new Set(items.map((i) => i.id)).size).toBe(85);
    expect(new Set(items.map((i) => i.group)).size).toBe(10);
    expect(items[2].id).toBe('01-374a3eb6-95cf-4725-9e76-86a8972aa5cb-Llama-3.1-8B');
  });

  it('matches no item of the MRBench V3 dev set or of MRBench V1', () => {
    const ids = (file: string, format: 'mrbench' | 'mrbench-v1') =>
      new Set(
        ok<{ id: string; group?: string }>(rubricItemRecords(publicDataPath('mrbench', file), format)).flatMap((i) => [i.id, i.group!]),
      );
    const v3 = ids('mrbench_v3_devset.json', 'mrbench');
    const v1 = ids('MRBench_V1.json', 'mrbench-v1');
    expect(items.filter((i) => v3.has(i.id) || v3.has(i.group!) || v1.has(i.id) || v1.has(i.group!))).toEqual([]);
  });
});

describe('AITutor-EvalKit predictions → judge lines', () => {
  const sampleIds = new Set(ok<{ id: string }>(rubricItemRecords(sample, 'aitutor-evalkit')).map((i) => i.id));

  it('finds the judges in each file and picks the one the file is named after', () => {
    expect(evalkitJudgeNames(kit('auto_model_predictions.json'))).toEqual([EVALKIT_AUTO_JUDGE]);
    expect(evalkitJudgeNames(kit('gpt5_model_predictions.json'))).toEqual([EVALKIT_AUTO_JUDGE, PROMETHEUS, 'gpt5']);
    expect(evalkitDefaultJudge(kit('auto_model_predictions.json'))).toBe(EVALKIT_AUTO_JUDGE);
    expect(evalkitDefaultJudge(kit('gpt5_model_predictions.json'))).toBe('gpt5');
    expect(evalkitDefaultJudge(kit('prometheus_model_predictions.json'))).toBe(PROMETHEUS);
    expect(() => evalkitDefaultJudge(sample)).toThrow(
      'Cannot tell which judge test_sample.json is for; name one of: (the file holds no predictions).',
    );
  });

  for (const [file, judge] of [
    ['auto_model_predictions.json', EVALKIT_AUTO_JUDGE],
    ['gpt5_model_predictions.json', 'gpt5'],
    ['prometheus_model_predictions.json', PROMETHEUS],
  ] as const) {
    it(`${file}: 85 lines by ${judge}, four valid V3 labels each, keyed to the sample's items`, () => {
      const results = Array.from(rubricJudgeRecords(kit(file), 'aitutor-evalkit', MRBENCH_V3_CATALOG));
      expect(results.filter((r) => !r.ok)).toEqual([]);
      const lines = ok<RubricJudgeLine>(results);
      expect(lines).toHaveLength(85);
      expect(lines.every((l) => l.judge === judge && l.sample === 1 && Object.keys(l.labels).length === 4)).toBe(true);
      expect(lines.every((l) => sampleIds.has(l.item))).toBe(true);
    });
  }

  it('reads the first reply exactly, for each judge of the gpt5 file', () => {
    const first = (judge: string) =>
      ok<RubricJudgeLine>(rubricJudgeRecords(kit('gpt5_model_predictions.json'), 'aitutor-evalkit', MRBENCH_V3_CATALOG, judge))[0];
    const item = '01-374a3eb6-95cf-4725-9e76-86a8972aa5cb-Gemini';
    expect(first('gpt5')).toEqual({
      item,
      judge: 'gpt5',
      sample: 1,
      labels: { mistake_identification: 'No', mistake_location: 'No', providing_guidance: 'No', actionability: 'Yes' },
    });
    expect(first(PROMETHEUS).labels).toEqual({
      mistake_identification: 'No',
      mistake_location: 'No',
      providing_guidance: 'To some extent',
      actionability: 'Yes',
    });
    expect(first(EVALKIT_AUTO_JUDGE).labels).toEqual({
      mistake_identification: 'Yes',
      mistake_location: 'Yes',
      providing_guidance: 'Yes',
      actionability: 'Yes',
    });
  });

  it('counts of the gpt5 labels match the file', () => {
    const lines = ok<RubricJudgeLine>(rubricJudgeRecords(kit('gpt5_model_predictions.json'), 'aitutor-evalkit', MRBENCH_V3_CATALOG));
    const count = (dim: string, label: string) => lines.filter((l) => l.labels[dim] === label).length;
    expect(['No', 'To some extent', 'Yes'].map((l) => count('mistake_identification', l))).toEqual([24, 18, 43]);
    expect(['No', 'To some extent', 'Yes'].map((l) => count('actionability', l))).toEqual([28, 22, 35]);
  });

  it('lists unreadable and missing verdicts without guessing, and keeps the readable ones', () => {
    const file = path.join(tmp.dir, 'gpt5_model_predictions.json');
    fs.writeFileSync(
      file,
      JSON.stringify([
        {
          conversation_id: 'c1',
          conversation_history: 'Tutor: Hi\nStudent: 3',
          anno_llm_responses: {
            A: {
              response: 'x',
              llm_annotation: { 'Actionability/gpt5': 'yes', 'Mistake_Location/gpt5': ' No ', 'Mistake_Identification/gpt5': 2 },
            },
            B: { response: 'y', llm_annotation: { 'Actionability/other': 'Yes' } },
            C: { response: 'z', llm_annotation: { 'Tone/gpt5': 'Yes' } },
          },
        },
      ]),
    );
    const results = Array.from(rubricJudgeRecords(file, 'aitutor-evalkit', MRBENCH_V3_CATALOG));
    expect(ok<RubricJudgeLine>(results)).toEqual([{ item: 'c1-A', judge: 'gpt5', sample: 1, labels: { mistake_location: 'No' } }]);
    const failures = results.flatMap((r) => (r.ok ? [] : [{ unreadable: r.unreadableVerdict ?? null, message: r.errors[0].message }]));
    expect(failures).toEqual([
      {
        unreadable: { item: 'c1-A', criterion: 'actionability' },
        message:
          'record 1 (item c1-A), anno_llm_responses.A.llm_annotation["Actionability/gpt5"]: unreadable verdict "yes" (expected one of No, To some extent, Yes)',
      },
      {
        unreadable: { item: 'c1-A', criterion: 'mistake_identification' },
        message:
          'record 1 (item c1-A), anno_llm_responses.A.llm_annotation["Mistake_Identification/gpt5"]: unreadable verdict 2 (expected one of No, To some extent, Yes)',
      },
      { unreadable: { item: 'c1-B' }, message: 'record 1 (item c1-B), anno_llm_responses.B.llm_annotation: has no verdict from gpt5' },
      {
        unreadable: null,
        message:
          'record 1, anno_llm_responses.C.llm_annotation["Tone/gpt5"]: Tone is not a dimension of this study (mistake_identification, mistake_location, providing_guidance, actionability)',
      },
    ]);
  });
});
