import { describe, expect, it } from 'vitest';
import type { JudgeRunDto } from '@/lib/server/analytics/dto';
import { defaultJudgeRun, judgeRunsInOrder } from './judge-run-order';

const run = (name: string, labels: number, createdAt: string): JudgeRunDto => ({ name, labels, unparsed: 0, createdAt, recipe: null });

// Issue 26, point 4: dead runs with 0 verdicts crowded every judge selector and became the alignment page's
// default over mrbench-v1 (they sort first by name).
const runs = [
  run('a-dead-run', 0, '2026-11-26T09:00:00.000Z'),
  run('b-old', 40, '2026-11-20T09:00:00.000Z'),
  run('c-newer', 12, '2026-11-25T09:00:00.000Z'),
  run('d-dead-too', 0, '2026-11-26T10:00:00.000Z'),
];

describe('judge run order', () => {
  it('opens on the newest run with verdicts, never on an empty one', () => {
    expect(defaultJudgeRun(runs)).toBe('c-newer');
    expect(defaultJudgeRun(runs, 'no-such-run')).toBe('c-newer');
  });

  it('keeps the run the URL asks for, even an empty one', () => {
    expect(defaultJudgeRun(runs, 'b-old')).toBe('b-old');
    expect(defaultJudgeRun(runs, 'a-dead-run')).toBe('a-dead-run');
  });

  it('falls back to the first run when every run is empty', () => {
    expect(defaultJudgeRun([run('x', 0, '2026-11-26T09:00:00.000Z'), run('y', 0, '2026-11-26T10:00:00.000Z')])).toBe('x');
  });

  it('lists the runs with verdicts first, in their order, and the empty ones last', () => {
    expect(judgeRunsInOrder(runs).map((r) => r.name)).toEqual(['b-old', 'c-newer', 'a-dead-run', 'd-dead-too']);
  });
});
