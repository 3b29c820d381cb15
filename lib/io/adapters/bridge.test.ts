import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { pairwiseRecords } from '@/lib/kinds/pairwise/records';
import { publicDataPath } from '../public-data';
import type { PairwiseItem } from '@/lib/validation/pairwise';
import { bridgeItems, bridgeResponseNames, bridgeSourceName } from './bridge';

type RawMessage = { user: string; text: string };
type RawContext = { c_id: string; c_h: RawMessage[]; c_r: RawMessage[]; c_r_: RawMessage[] };

const dir = publicDataPath('bridge');
const readRaw = (file: string) => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as RawContext[];

function load(options?: { a?: string; b?: string }) {
  const results = Array.from(pairwiseRecords(dir, 'bridge', options));
  const failures = results.filter((r) => !r.ok);
  const items = results.flatMap((r) => (r.ok ? [{ line: r.line, item: r.value }] : []));
  return { failures, items, byLine: new Map(items.map((x) => [x.line, x.item] as const)) };
}

describe('Bridge → pairwise items (default: GPT-4 with the expert prompt vs the expert)', () => {
  const { failures, items, byLine } = load();
  const test = readRaw('test.json');
  const gpt4 = readRaw('responses/expert_gpt4.json');
  const item = (line: number): PairwiseItem => {
    const found = byLine.get(line);
    if (!found) throw new Error(`no item for record ${line}`);
    return found;
  };

  it('makes one valid item per snippet, with unique ids', () => {
    expect(failures).toEqual([]);
    expect(items).toHaveLength(210);
    expect(new Set(items.map((x) => x.item.id)).size).toBe(210);
  });

  it('converts the first snippet exactly', () => {
    expect(item(1)).toEqual({
      id: 'bridge-1-expert_gpt4-vs-expert',
      problem: 'Lesson topic: 2.8A.2- and 3-Dimensional Shapes',
      instructions: "Student's error: guess. Suggested strategy: explain concept. Intention: understand topic.",
      history: [
        { role: 'student', text: 'i meant 5 sides' },
        { role: 'tutor', text: 'That is okay!' },
        { role: 'tutor', text: 'What is the name of the 5 sided shape?' },
        { role: 'student', text: 'hexagon' },
      ],
      a: { source: 'gpt4 (expert prompt)', text: gpt4[0].c_r_[0].text },
      b: { source: 'human expert', text: 'Close! A hexagon actually has 6 sides. A pentagon has 5 sides.' },
    });
  });

  it('keeps repeated snippets apart (test.json has the same snippet annotated twice)', () => {
    // Records 131 and 198 share c_id, history and annotations but have different expert revisions.
    expect(test[130].c_id).toBe(test[197].c_id);
    expect(item(131).b.text).toBe(test[130].c_r_.map((m) => m.text).join('\n'));
    expect(item(198).b.text).toBe(test[197].c_r_.map((m) => m.text).join('\n'));
    expect(item(131).b.text).not.toBe(item(198).b.text);
    expect(item(131).a.text).toBe(gpt4[130].c_r_[0].text);
    expect(item(198).a.text).toBe(gpt4[197].c_r_[0].text);
  });

  it('leaves out empty history messages', () => {
    expect(test[44].c_h).toHaveLength(4);
    expect(item(45).history.map((t) => t.text)).toEqual(test[44].c_h.map((m) => m.text).filter((t) => t !== ''));
    expect(item(45).history).toHaveLength(3);
  });
});

describe('Bridge with other reply sources', () => {
  it('matches a response file listed in its own order to the right snippets', () => {
    const raw = readRaw('responses/random_gpt4.json');
    const { failures, items } = load({ a: 'random_gpt4' });
    expect(failures).toEqual([]);
    expect(items).toHaveLength(100);
    // Each reply is used once, beside the history of the snippet it answered
    // (two records happen to share both, so compare as multisets).
    const tally = (pairs: string[]) => pairs.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<string, number>());
    const fromItems = items.map(({ item }) => JSON.stringify([item.a.text, item.history.map((t) => t.text)]));
    const fromFile = raw.map((r) =>
      JSON.stringify([r.c_r_.map((m) => m.text).join('\n'), r.c_h.map((m) => m.text).filter((t) => t.trim() !== '')]),
    );
    expect(tally(fromItems)).toEqual(tally(fromFile));
    expect(new Set(items.map(({ item }) => item.a.source))).toEqual(new Set(['gpt4 (random error and strategy)']));
  });

  it('keeps empty model replies (judged as given) and covers only answered snippets', () => {
    const { failures, items } = load({ a: 'expert_llama-2-70b-chat' });
    expect(failures).toEqual([]);
    expect(items).toHaveLength(100);
    expect(items.filter(({ item }) => item.a.text === '')).toHaveLength(2);
  });

  it('offers the novice reply, joining its messages', () => {
    const test = readRaw('test.json');
    const { items, byLine } = load({ a: 'novice' });
    expect(items).toHaveLength(210);
    expect(byLine.get(1)!.a).toEqual({ source: 'novice tutor', text: 'That is a good try.' });
    // Record 76's novice reply is six messages, one of them empty.
    expect(byLine.get(76)!.a.text.split('\n')).toEqual(test[75].c_r.map((m) => m.text).filter(Boolean));
    expect(byLine.get(76)!.id).toBe('bridge-76-novice-vs-expert');
  });

  it('names sources after the file and rejects unknown or identical sides', () => {
    expect(bridgeResponseNames(dir)).toHaveLength(16);
    expect(bridgeSourceName('expert_gpt4')).toBe('gpt4 (expert prompt)');
    expect(bridgeSourceName('none_falcon-40b-instruct')).toBe('falcon-40b-instruct (no error or strategy given)');
    expect(bridgeSourceName('chatgpt_chatgpt')).toBe('chatgpt (own error and strategy)');
    expect(bridgeSourceName('expert_expert')).toBe('human expert');
    expect(() => Array.from(bridgeItems(dir, { a: 'gpt5' }))).toThrow(/Unknown Bridge reply source "gpt5"/);
    expect(() => Array.from(bridgeItems(dir, { a: '../test' }))).toThrow(/Unknown Bridge reply source/);
    expect(() => Array.from(bridgeItems(dir, { a: 'expert', b: 'expert' }))).toThrow(/two different sources/);
  });
});
