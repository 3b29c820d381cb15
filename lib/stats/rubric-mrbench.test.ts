import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
// Test only: the statistics are checked on real data read through the MRBench adapter.
import { publicDataPath } from '@/lib/io/public-data';
import { rubricAnnotationRecords, rubricItemRecords } from '@/lib/kinds/rubric/records';
import { MRBENCH_V1_CATALOG, MRBENCH_V3_CATALOG } from '@/lib/validation/rubric-catalogs';
import { desiredShareBy, rubricAlignment } from './rubric';

const v3File = publicDataPath('mrbench', 'mrbench_v3_devset.json');
const v1File = publicDataPath('mrbench', 'MRBench_V1.json');
const FIELDS = ['Mistake_Identification', 'Mistake_Location', 'Providing_Guidance', 'Actionability'];

type RawReply = { response: string; annotation: Record<string, string> };
type RawRecord = { conversation_id: string; tutor_responses?: Record<string, RawReply>; anno_llm_responses?: Record<string, RawReply> };

describe('MRBench V3 dev set: per-tutor share of "Yes"', () => {
  // Independent count straight from the JSON: tutor → field → [yes, total].
  const raw = JSON.parse(fs.readFileSync(v3File, 'utf8')) as RawRecord[];
  const expected = new Map<string, Map<string, [number, number]>>();
  for (const r of raw) {
    for (const [tutor, reply] of Object.entries(r.tutor_responses!)) {
      const perField = expected.get(tutor) ?? new Map<string, [number, number]>();
      expected.set(tutor, perField);
      for (const field of FIELDS) {
        const [yes, total] = perField.get(field) ?? [0, 0];
        perField.set(field, [yes + (reply.annotation[field] === 'Yes' ? 1 : 0), total + 1]);
      }
    }
  }

  const source = new Map<string, string>();
  for (const r of rubricItemRecords(v3File, 'mrbench')) if (r.ok) source.set(r.value.id, r.value.reply!.source);
  const gold = Array.from(rubricAnnotationRecords(v3File, 'mrbench', MRBENCH_V3_CATALOG)).flatMap((r) => (r.ok ? [r.value] : []));

  it('the adapter plus desiredShareBy reproduce the raw counts for every tutor and dimension', () => {
    expect(expected.size).toBe(9);
    for (const dimension of MRBENCH_V3_CATALOG) {
      const field = FIELDS.find((f) => f.toLowerCase() === dimension.id)!;
      const shares = desiredShareBy(
        gold.map((l) => source.get(l.item)!),
        gold.map((l) => l.labels[dimension.id] ?? null),
        dimension.desired,
      );
      expect(shares.size).toBe(9);
      for (const [tutor, perField] of expected) {
        const [yes, total] = perField.get(field)!;
        expect(shares.get(tutor), `${tutor} ${field}`).toEqual({ n: total, desired: yes, share: { value: yes / total } });
      }
    }
  });

  it('spot values: the expert, GPT-4 and the novice on mistake identification and actionability', () => {
    const shares = (dimension: string) =>
      desiredShareBy(
        gold.map((l) => source.get(l.item)!),
        gold.map((l) => l.labels[dimension] ?? null),
        'Yes',
      );
    const mi = shares('mistake_identification');
    const act = shares('actionability');
    expect([mi.get('Expert')!.desired, mi.get('GPT4')!.desired, mi.get('Novice')!.desired]).toEqual([225, 282, 34]);
    expect(mi.get('Novice')!.n).toBe(76);
    expect(mi.get('GPT4')!.share.value).toBeCloseTo(0.94, 12);
    expect([act.get('Expert')!.desired, act.get('GPT4')!.desired, act.get('Phi3')!.desired]).toEqual([241, 138, 32]);
  });
});

describe('MRBench V1 gold against V3 gold on the replies both label', () => {
  // The 183 dialogues V1 and V3 share are labelled in both files: a real test of the alignment
  // summary, with the agreement counted independently from the raw JSON.
  const key = (records: RawRecord[]) => {
    const total = new Map<string, number>();
    for (const r of records) total.set(r.conversation_id, (total.get(r.conversation_id) ?? 0) + 1);
    const seen = new Map<string, number>();
    const out = new Map<string, Record<string, string>>();
    for (const r of records) {
      const n = (seen.get(r.conversation_id) ?? 0) + 1;
      seen.set(r.conversation_id, n);
      const k = total.get(r.conversation_id)! > 1 ? `${r.conversation_id}_${n}` : r.conversation_id;
      for (const [tutor, reply] of Object.entries(r.tutor_responses ?? r.anno_llm_responses ?? {}))
        out.set(`${k}-${tutor}`, reply.annotation);
    }
    return out;
  };
  const rawV3 = key(JSON.parse(fs.readFileSync(v3File, 'utf8')) as RawRecord[]);
  const rawV1 = key(JSON.parse(fs.readFileSync(v1File, 'utf8')) as RawRecord[]);
  const goldOf = (file: string, format: 'mrbench' | 'mrbench-v1') =>
    new Map(
      Array.from(rubricAnnotationRecords(file, format, format === 'mrbench' ? MRBENCH_V3_CATALOG : MRBENCH_V1_CATALOG)).flatMap((r) =>
        r.ok ? [[r.value.item, r.value.labels] as const] : [],
      ),
    );

  it('agreement per dimension equals the raw count', () => {
    const v3 = goldOf(v3File, 'mrbench');
    const v1 = goldOf(v1File, 'mrbench-v1');
    const shared = [...v1.keys()].filter((id) => v3.has(id));
    expect(shared).toHaveLength(1508);
    for (const dimension of MRBENCH_V3_CATALOG) {
      const field = FIELDS.find((f) => f.toLowerCase() === dimension.id)!;
      const r = rubricAlignment(
        shared.map((id) => v3.get(id)![dimension.id]),
        shared.map((id) => v1.get(id)![dimension.id]),
        dimension,
      );
      const agree = shared.filter((id) => rawV3.get(id)![field] === rawV1.get(id)![field]).length;
      expect(r.n).toBe(1508);
      expect(r.agree, dimension.id).toBe(agree);
      expect(r.lenient!.n).toBe(1508);
    }
  });
});
