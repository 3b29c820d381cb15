import { describe, expect, it } from 'vitest';
import { canonicalPairwise, judgeLaunchSchema, judgeTemplateSchema, PAIRWISE_ANSWERS, readVerdicts, renderPrompt } from './judge-template';
import { SHIPPED_TEMPLATES } from './judge-templates';

const pairwise = () => PAIRWISE_ANSWERS;

describe('judge templates', () => {
  it('accepts the shipped templates', () => {
    for (const t of Object.values(SHIPPED_TEMPLATES)) expect(judgeTemplateSchema.safeParse(t).success, t.name).toBe(true);
  });

  it('names the field of a bad template', () => {
    const bad = judgeTemplateSchema.safeParse({ name: 'x', user: 'Hi {{nope}}', answer: { pattern: 'no group' } });
    expect(bad.success).toBe(false);
    const paths = bad.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(paths.some((p) => p.startsWith('user: unknown placeholder {{nope}}'))).toBe(true);
    expect(paths.some((p) => p.startsWith('answer.pattern: must have one capturing group'))).toBe(true);
    expect(judgeTemplateSchema.safeParse({ name: 'x', user: 'u', answer: { pattern: '(' } }).error!.issues[0].path).toEqual([
      'answer',
      'pattern',
    ]);
    expect(judgeTemplateSchema.safeParse({ name: 'x', user: 'u', together: true, answer: { pattern: '(a)' } }).success).toBe(false);
  });

  it('renders placeholders once, so item text that looks like a placeholder stays as it is', () => {
    const [sys, user] = renderPrompt(
      {
        system: 'About {{criterion.name}}',
        user: '{{problem}}|{{history}}|{{response_1}}|{{response_2}}|{{criterion.aspects}}|{{labels}}',
      },
      {
        problem: 'What is {{reply}}?',
        history: [
          { role: 'student', text: 'hi' },
          { role: 'tutor', text: 'hello' },
        ],
        responses: ['B text', 'A text'],
        criterion: { id: 'c', name: 'Clarity', description: 'd', aspects: ['x', 'y'] },
        labels: ['No', 'Yes'],
      },
    );
    expect(sys.content).toBe('About Clarity');
    expect(user.content).toBe('What is {{reply}}?|Student: hi\nTutor: hello|B text|A text|- x\n- y|No, Yes');
  });

  it('reads a JSON key anywhere in the text, case-insensitive and trimmed, with a map', () => {
    const answer = { json: 'winner', map: { '1': 'first' } };
    expect(readVerdicts(answer, 'Thinking… {"winner": " Second "}', ['c'], pairwise, false)).toEqual({ c: 'second' });
    expect(readVerdicts(answer, 'x {"note": "{"} {"winner": 1}', ['c'], pairwise, false)).toEqual({ c: 'first' });
    // truncated JSON, a value outside the labels, no JSON at all: unreadable, never guessed
    expect(readVerdicts(answer, '{"winner": "fir', ['c'], pairwise, false)).toEqual({});
    expect(readVerdicts(answer, '{"winner": "both"}', ['c'], pairwise, false)).toEqual({});
    expect(readVerdicts(answer, 'The first reply is better.', ['c'], pairwise, false)).toEqual({});
  });

  it('reads an answer with a catastrophic pattern at once: patterns run in linear time (issue 21)', () => {
    // ^(a+)+$ backtracks exponentially in JavaScript's RegExp: 28 letters took seconds, 41 held a runner for good.
    const answer = { pattern: '^(a+)+$' };
    const started = performance.now();
    expect(readVerdicts(answer, `${'a'.repeat(28)}!`, ['c'], pairwise, false)).toEqual({});
    expect(performance.now() - started).toBeLessThan(500);
    const long = performance.now();
    expect(readVerdicts(answer, `${'a'.repeat(100_000)}!`, ['c'], pairwise, false)).toEqual({});
    expect(performance.now() - long).toBeLessThan(2_000);
  });

  it('refuses at save what cannot run in linear time, naming answer.pattern and why', () => {
    const issues = (pattern: string) =>
      (judgeTemplateSchema.safeParse({ name: 'x', user: 'u', answer: { pattern } }).error?.issues ?? []).map(
        (i) => `${i.path.join('.')}: ${i.message}`,
      );
    for (const p of ['(?=first)(\\w+)', '(?!no)(\\w+)', '(?<=winner: )(\\w+)', '(?<!not )(first|second)'])
      expect(issues(p), p).toEqual([expect.stringMatching(/^answer\.pattern: uses lookaround .*linear time/)]);
    for (const p of ['(a)\\1', '(?<v>a)\\k<v>'])
      expect(issues(p), p).toEqual([expect.stringMatching(/^answer\.pattern: uses a backreference .*linear time/)]);
    expect(issues('(first|second')).toEqual([
      expect.stringMatching(/^answer\.pattern: is not a valid RE2 regular expression: missing closing \)/),
    ]);
    expect(issues('^(a+)+$')).toEqual([]); // nested repetition is fine: it runs in linear time
  });

  it('keeps what a pattern means: case-insensitive, the first group that took part, named groups', () => {
    const read = (pattern: string, raw: string) => readVerdicts({ pattern }, raw, ['c'], pairwise, false);
    expect(read('winner:\\s*(\\w+)', 'Reasoning.\nWINNER: First')).toEqual({ c: 'first' });
    expect(read('(nothing)|verdict (\\w+)', 'Verdict TIE')).toEqual({ c: 'tie' });
    expect(read('(?<v>first|second)', 'the SECOND one')).toEqual({ c: 'second' });
    expect(read('^(first)$', 'first\nsecond')).toEqual({}); // ^ and $ are the ends of the answer, as before
  });

  it('reads a pattern and a together answer keyed by criterion', () => {
    const yesNo = () => ['No', 'Yes'];
    expect(readVerdicts({ pattern: '([01])\\s*$', map: { '1': 'Yes', '0': 'No' } }, 'Reasoning\n1\n', ['m'], yesNo, false)).toEqual({
      m: 'Yes',
    });
    expect(readVerdicts({ pattern: '([01])\\s*$', map: { '1': 'Yes', '0': 'No' } }, 'maybe', ['m'], yesNo, false)).toEqual({});
    expect(readVerdicts({ json: 'verdicts' }, '{"verdicts": {"a": "first", "b": "nonsense"}}', ['a', 'b', 'c'], pairwise, true)).toEqual({
      a: 'first',
    });
    expect(readVerdicts({ json: 'verdicts' }, '{"a": "tie", "c": "second"}', ['a', 'b', 'c'], pairwise, true)).toEqual({
      a: 'tie',
      c: 'second',
    });
  });

  it('maps first/second back to reply a from the order sent', () => {
    expect(canonicalPairwise('first', false)).toBe('win');
    expect(canonicalPairwise('first', true)).toBe('lose');
    expect(canonicalPairwise('second', false)).toBe('lose');
    expect(canonicalPairwise('second', true)).toBe('win');
    expect(canonicalPairwise('tie', true)).toBe('tie');
  });

  it('accepts only http(s) endpoints and environment variable names', () => {
    const ok = { name: 'r', endpoint: 'http://127.0.0.1:8000/v1', model: 'm' };
    expect(judgeLaunchSchema.safeParse(ok).success).toBe(true);
    for (const endpoint of ['javascript:alert(1)', 'file:///etc/passwd', 'ftp://x', 'http://user:pw@host/', 'not a url'])
      expect(judgeLaunchSchema.safeParse({ ...ok, endpoint }).success, endpoint).toBe(false);
    expect(judgeLaunchSchema.safeParse({ ...ok, apiKeyEnv: 'sk-abc123' }).success).toBe(false);
    expect(judgeLaunchSchema.parse(ok)).toMatchObject({ samples: 1, bothOrders: true, concurrency: 4 });
  });
});
