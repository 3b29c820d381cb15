import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { publicDataPath } from '../public-data';
import { rubricAnnotationRecords, rubricItemRecords } from '@/lib/kinds/rubric/records';
import { MRBENCH_V1_CATALOG, MRBENCH_V3_CATALOG } from '@/lib/validation/rubric-catalogs';
import { mrbenchHistory, mrbenchItemId, mrbenchRunLines, mrbenchSafeId } from './mrbench';
import { useTempDir } from '@/test/temp-tree';

const v3File = publicDataPath('mrbench', 'mrbench_v3_devset.json');
const v1File = publicDataPath('mrbench', 'MRBench_V1.json');

type Raw = { conversation_id: string; conversation_history: string } & Record<
  string,
  Record<string, { response: string; annotation: Record<string, string> }>
>;
const raw = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as Raw[];

const tmp = useTempDir('concord-mrbench-');
let written = 0;

function tmpJson(value: unknown): string {
  // data.json, as the messages name it, in a folder of its own each time
  const file = path.join(tmp.dir, String(++written), 'data.json');
  fs.mkdirSync(path.dirname(file));
  fs.writeFileSync(file, JSON.stringify(value));
  return file;
}

describe('mrbenchHistory', () => {
  it('splits on speaker tags, keeps multi-line turns, trims the (no-break) padding', () => {
    const text =
      'Tutor: Hi, solve this: 2+2?\u00a0\n\u00a0Student: First I add.\nThen I check.\n\n\u00a04\u00a0\n\u00a0Tutor: Walk me through it.\u00a0\nTuror: Really?\n Student : 4';
    expect(mrbenchHistory(text)).toEqual([
      { role: 'tutor', text: 'Hi, solve this: 2+2?' },
      { role: 'student', text: 'First I add.\nThen I check.\n\n4' },
      { role: 'tutor', text: 'Walk me through it.' },
      { role: 'tutor', text: 'Really?' },
      { role: 'student', text: '4' },
    ]);
  });

  it('drops an empty trailing turn and refuses text before the first tag', () => {
    expect(mrbenchHistory('Student: 90 \n Tutor:')).toEqual([{ role: 'student', text: '90' }]);
    expect(() => mrbenchHistory('Teacher: hello')).toThrow('must start with "Tutor:" or "Student:"');
  });

  it('makes ids safe', () => {
    expect(mrbenchSafeId(' a b/c ')).toBe('a_b_c');
    expect(mrbenchItemId('221-362e', 'Llama-3.1-8B')).toBe('221-362e-Llama-3.1-8B');
  });
});

describe('MRBench V3 dev set', () => {
  const data = raw(v3File);
  const items = Array.from(rubricItemRecords(v3File, 'mrbench'));
  const gold = Array.from(rubricAnnotationRecords(v3File, 'mrbench', MRBENCH_V3_CATALOG));
  const okItems = items.flatMap((r) => (r.ok ? [r.value] : []));
  const okGold = gold.flatMap((r) => (r.ok ? [r.value] : []));

  it('gives 2,476 items in 300 groups with unique ids, and every history parsed', () => {
    expect(items.filter((r) => !r.ok)).toEqual([]);
    expect(okItems).toHaveLength(2476);
    expect(new Set(okItems.map((i) => i.id)).size).toBe(2476);
    expect(new Set(okItems.map((i) => i.group)).size).toBe(300);
    expect(okItems.every((i) => i.history.length >= 1 && i.reply !== undefined)).toBe(true);
    // The speaker tags of the raw text, counted independently, equal the parsed turns.
    const tags = data.reduce((n, r) => n + (r.conversation_history.match(/^\s*(Tutor|Turor|Student)\s*:/gm) ?? []).length, 0);
    const turns = okItems.filter((i) => i.reply?.source === 'Expert').reduce((n, i) => n + i.history.length, 0);
    expect(turns).toBe(tags);
  });

  it('converts a reply exactly', () => {
    const item = okItems.find((i) => i.id === '221-362eb11a-f190-42a6-b2a4-985fafdcfa9e-Sonnet')!;
    expect(item.group).toBe('221-362eb11a-f190-42a6-b2a4-985fafdcfa9e');
    expect(item.reply).toEqual({
      source: 'Sonnet',
      text: "Great, you've correctly identified the cost of the meat, now let's focus on calculating the total cost of meat for all the sandwiches needed.",
    });
    expect(item.history.map((t) => t.role)).toEqual(['tutor', 'student', 'tutor', 'student', 'tutor', 'student']);
    expect(item.history[1].text.split('\n')).toEqual([
      'To serve 20 people, Tyson needs to make 20/4 = 5 sandwiches.',
      'Each sandwich requires 1+1 = 2 pounds of meat and cheese.',
      'For 5 sandwiches, he needs a total of 2 x 5 = 10 pounds of meat and cheese.',
      'The cost of 10 pounds of meat is 10 x $7.00 = $70.',
      'The cost of 10 pounds of cheese is 10 x $3.00 = $30.',
      'The total cost of meat and cheese is $70 + $30 = $100.',
      '100',
    ]);
    expect(item.history[5]).toEqual({ role: 'student', text: 'The cost of 1 pound of meat is $7.00.' });
  });

  it('reads the misspelt tutor tag as a tutor turn', () => {
    const withTypo = data.find((r) => r.conversation_history.includes('Turor:'))!;
    const item = okItems.find((i) => i.group === withTypo.conversation_id)!;
    expect(item.history.map((t) => t.role)).toEqual(['tutor', 'student', 'tutor', 'student']);
    expect(item.history[2].text).toBe('Walk me through your answer');
  });

  it('gives every reply its gold labels, all valid in the V3 catalog, with the published label counts', () => {
    expect(gold.filter((r) => !r.ok)).toEqual([]);
    expect(okGold).toHaveLength(2476);
    expect(okGold.every((l) => l.annotator === 'mrbench-gold' && Object.keys(l.labels).length === 4)).toBe(true);
    expect(okGold[0]).toEqual({
      item: '221-362eb11a-f190-42a6-b2a4-985fafdcfa9e-Sonnet',
      annotator: 'mrbench-gold',
      labels: { mistake_identification: 'Yes', mistake_location: 'Yes', providing_guidance: 'Yes', actionability: 'Yes' },
    });
    const count = (dim: string, label: string) => okGold.filter((l) => l.labels[dim] === label).length;
    expect([count('actionability', 'No'), count('actionability', 'To some extent'), count('actionability', 'Yes')]).toEqual([
      797, 369, 1310,
    ]);
    expect(count('mistake_identification', 'Yes')).toBe(1932);
  });

  it('refuses V3 labels under the V1 catalog only where V1 differs (none), and V1 labels under V3', () => {
    // The four V3 dimensions are also V1 dimensions with the same labels.
    expect(Array.from(rubricAnnotationRecords(v3File, 'mrbench', MRBENCH_V1_CATALOG)).every((r) => r.ok)).toBe(true);
    const wrong = Array.from(rubricAnnotationRecords(v1File, 'mrbench', MRBENCH_V3_CATALOG)).filter((r) => !r.ok);
    expect(wrong).toHaveLength(1589);
    expect(wrong[0].ok === false && wrong[0].errors.map((e) => e.message)).toEqual([
      'record 1 (item 930-b01cb51d-748d-460c-841a-08e4d5cd5cc7-Gemini), labels.revealing_of_the_answer: is not a dimension of this study (mistake_identification, mistake_location, providing_guidance, actionability)',
      'record 1 (item 930-b01cb51d-748d-460c-841a-08e4d5cd5cc7-Gemini), labels.humanlikeness: is not a dimension of this study (mistake_identification, mistake_location, providing_guidance, actionability)',
      'record 1 (item 930-b01cb51d-748d-460c-841a-08e4d5cd5cc7-Gemini), labels.coherence: is not a dimension of this study (mistake_identification, mistake_location, providing_guidance, actionability)',
      'record 1 (item 930-b01cb51d-748d-460c-841a-08e4d5cd5cc7-Gemini), labels.tutor_tone: is not a dimension of this study (mistake_identification, mistake_location, providing_guidance, actionability)',
    ]);
  });
});

describe('MRBench V1', () => {
  const items = Array.from(rubricItemRecords(v1File, 'mrbench-v1'));
  const gold = Array.from(rubricAnnotationRecords(v1File, 'mrbench-v1', MRBENCH_V1_CATALOG));
  const okItems = items.flatMap((r) => (r.ok ? [r.value] : []));
  const okGold = gold.flatMap((r) => (r.ok ? [r.value] : []));

  it('gives 1,589 items in 192 groups, each with eight gold labels valid in the V1 catalog', () => {
    expect(items.filter((r) => !r.ok)).toEqual([]);
    expect(okItems).toHaveLength(1589);
    expect(new Set(okItems.map((i) => i.id)).size).toBe(1589);
    expect(new Set(okItems.map((i) => i.group)).size).toBe(192);
    expect(gold.filter((r) => !r.ok)).toEqual([]);
    expect(okGold).toHaveLength(1589);
    expect(okGold.every((l) => Object.keys(l.labels).length === 8)).toBe(true);
  });

  it('numbers the four repeated conversation ids as the V3 dev set does, so shared dialogues share keys', () => {
    const groups = [...new Set(okItems.map((i) => i.group))];
    expect(groups.filter((g) => /^413876945/.test(g!))).toEqual(['413876945_1', '413876945_2']);
    const v3 = new Map(raw(v3File).map((r) => [r.conversation_id, r.conversation_history] as const));
    const v1 = raw(v1File);
    const shared = groups.filter((g) => v3.has(g!));
    expect(shared).toHaveLength(183);
    // Every shared key names the same dialogue, word for word, in both files.
    const v1History = new Map<string, string>();
    const seen = new Map<string, number>();
    const total = new Map<string, number>();
    for (const r of v1) total.set(r.conversation_id, (total.get(r.conversation_id) ?? 0) + 1);
    for (const r of v1) {
      const n = (seen.get(r.conversation_id) ?? 0) + 1;
      seen.set(r.conversation_id, n);
      v1History.set(total.get(r.conversation_id)! > 1 ? `${r.conversation_id}_${n}` : r.conversation_id, r.conversation_history);
    }
    const sameText = shared.filter((g) => v1History.get(g!) === v3.get(g!));
    expect(sameText).toHaveLength(183);
  });

  it('uses every label of the V1 catalog that the file uses, and only those', () => {
    for (const d of MRBENCH_V1_CATALOG) {
      const seen = new Set(okGold.map((l) => l.labels[d.id]));
      expect([...seen].sort()).toEqual([...d.labels].sort());
    }
  });

  it('maps the lowercase humanlikeness field and the V1 answer-revealing labels', () => {
    const first = okGold[0];
    expect(first.item).toBe('930-b01cb51d-748d-460c-841a-08e4d5cd5cc7-Gemini');
    expect(first.labels).toEqual({
      mistake_identification: 'Yes',
      mistake_location: 'Yes',
      revealing_of_the_answer: 'No',
      providing_guidance: 'Yes',
      actionability: 'Yes',
      humanlikeness: 'Yes',
      coherence: 'Yes',
      tutor_tone: 'Neutral',
    });
    const revealing = (label: string) => okGold.filter((l) => l.labels.revealing_of_the_answer === label).length;
    expect([revealing('Yes (but the answer is incorrect)'), revealing('Yes (and the answer is correct)'), revealing('No')]).toEqual([
      26, 232, 1331,
    ]);
  });
});

describe('an earlier release as a judge run (mrbenchRunLines)', () => {
  const reply = (response: string, label: string) => ({ response, annotation: { Mistake_Identification: label, Tutor_Tone: 'Neutral' } });
  it('keeps the replies the study has word for word (repeated ids numbered), and only the study dimensions', () => {
    const file = tmpJson([
      {
        conversation_id: '7',
        conversation_history: 'Tutor: hi',
        anno_llm_responses: { GPT4: reply(' Same text. ', 'Yes'), Phi3: reply('Old', 'No') },
      },
      { conversation_id: '9', conversation_history: 'Tutor: hi', anno_llm_responses: { GPT4: reply('First', 'No') } },
      { conversation_id: '9', conversation_history: 'Tutor: hi', anno_llm_responses: { GPT4: reply('Second', 'To some extent') } },
      { conversation_id: '11', conversation_history: 'Tutor: hi', anno_llm_responses: { GPT4: reply('Gone', 'Yes') } },
    ]);
    const study = new Map([
      ['7-GPT4', 'Same text.'],
      ['7-Phi3', 'New'],
      ['9_1-GPT4', 'First'],
      ['9_2-GPT4', 'Second'],
    ]);
    const out = mrbenchRunLines(file, 'earlier', new Set(['mistake_identification']), (id) => study.get(id));
    expect(out).toEqual({
      lines: [
        { item: '7-GPT4', judge: 'earlier', labels: { mistake_identification: 'Yes' } },
        { item: '9_1-GPT4', judge: 'earlier', labels: { mistake_identification: 'No' } },
        { item: '9_2-GPT4', judge: 'earlier', labels: { mistake_identification: 'To some extent' } },
      ],
      changed: 1,
      missing: 1,
    });
  });

  it('refuses a file it cannot read, naming the record and field', () => {
    const file = tmpJson([{ conversation_id: '7', conversation_history: 'Tutor: hi' }]);
    expect(() => mrbenchRunLines(file, 'x', new Set(), () => undefined)).toThrow(/data\.json: record 1: tutor_responses is required/);
  });

  it('finds 1,464 replies of the V3 dev set in MRBench V1 with the same text', () => {
    const text = new Map(
      raw(v3File).flatMap((r) =>
        Object.entries(r.tutor_responses).map(([t, x]) => [mrbenchItemId(r.conversation_id, t), x.response.trim()]),
      ),
    );
    const out = mrbenchRunLines(v1File, 'mrbench-v1', new Set(['actionability']), (id) => text.get(id));
    expect(out.lines).toHaveLength(1464);
    expect(out.lines.length + out.changed + out.missing).toBe(1589);
  });
});

describe('MRBench problems are reported, not guessed', () => {
  it('reports an unknown label naming the allowed ones, a missing annotation and an unreadable history', () => {
    const file = tmpJson([
      {
        conversation_id: 'c1',
        conversation_history: 'Tutor: Hi\nStudent: 3',
        tutor_responses: {
          A: { response: 'Check again.', annotation: { Actionability: 'Maybe' } },
          B: { response: 'Hm.' },
          C: { response: 'x', annotation: { actionability: 'Yes', Actionability: 'No' } },
        },
      },
      { conversation_id: 'c2', conversation_history: 'Hello there', tutor_responses: { A: { response: 'x' } } },
      { conversation_id: 'c3', conversation_history: 'Tutor: x' },
    ]);
    const messages = (rs: Iterable<{ ok: boolean }>) =>
      Array.from(rs).flatMap((r) => ('errors' in r ? (r.errors as { message: string }[]).map((e) => e.message) : []));
    expect(messages(rubricAnnotationRecords(file, 'mrbench', MRBENCH_V3_CATALOG))).toEqual([
      'record 1 (item c1-A), labels.actionability: "Maybe" is not one of No, To some extent, Yes',
      'record 1, tutor_responses.B.annotation: is required: this reply has no labels',
      'record 1, tutor_responses.C.annotation: actionability and Actionability both name the dimension actionability',
      'record 2, tutor_responses.A.annotation: is required: this reply has no labels',
      'record 3, tutor_responses: is required (or anno_llm_responses): the record has no replies',
    ]);
    expect(messages(rubricItemRecords(file, 'mrbench'))).toEqual([
      'record 2, conversation_history: must start with "Tutor:" or "Student:"',
      'record 3, tutor_responses: is required (or anno_llm_responses): the record has no replies',
    ]);
  });
});
