import { RE2JS } from 're2js';

/*
 * Answer patterns (`{"pattern": "…"}` in a judge prompt template) run on text an endpoint wrote, so they run in
 * RE2JS, a linear-time engine (RE2's automata in plain JavaScript): no pattern can make reading an answer take
 * longer than a pass over it. JavaScript's own RegExp backtracks, and `^(a+)+$` on a 41-character answer held a
 * runner at full CPU with its heartbeat stopped (issue 21, docs/decisions/0015-linear-time-answer-patterns.md).
 * What RE2 cannot run in linear time (backreferences, lookaround) is refused when the template is saved.
 * Pure code: the template check, the editor's preview and the runner all read patterns through this file.
 */

export type CompiledPattern = RE2JS;

/** Why RE2 refuses a pattern, said in the lead's terms (the engine's own message says only what it choked on). */
function refusal(pattern: string, engineMessage: string): string {
  if (/\(\?<?[=!]/.test(pattern))
    return 'uses lookaround ((?=, (?!, (?<=, (?<!), which answer patterns do not support: they run in linear time (RE2 syntax)';
  if (/\\[1-9]|\\k</.test(pattern))
    return 'uses a backreference (\\1, \\k<name>), which answer patterns do not support: they run in linear time (RE2 syntax)';
  return `is not a valid RE2 regular expression: ${engineMessage.replace(/^error parsing regexp: /, '')}`;
}

/** The pattern compiled case-insensitively, or why it cannot be used as an answer pattern. */
export function compileAnswerPattern(pattern: string): { ok: true; re: CompiledPattern } | { ok: false; reason: string } {
  let re: CompiledPattern;
  try {
    re = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
  } catch (e) {
    return { ok: false, reason: refusal(pattern, (e as Error).message) };
  }
  if (re.groupCount() < 1) return { ok: false, reason: 'must have one capturing group (the verdict)' };
  return { ok: true, re };
}

const compiled = new Map<string, CompiledPattern>();

/**
 * The first group that took part in the pattern's first match in `text`, or null (no match, or the pattern cannot
 * be compiled: a stored template was checked when it was saved). A run reads thousands of answers with one
 * pattern, so compiled patterns are kept.
 */
export function matchAnswerPattern(pattern: string, text: string): string | null {
  let re = compiled.get(pattern);
  if (!re) {
    const c = compileAnswerPattern(pattern);
    if (!c.ok) return null;
    re = c.re;
    if (compiled.size >= 64) compiled.clear();
    compiled.set(pattern, re);
  }
  const m = re.matcher(text);
  if (!m.find()) return null;
  for (let g = 1; g <= re.groupCount(); g++) {
    const value = m.group(g);
    if (value !== null && value !== undefined) return value;
  }
  return null;
}

/**
 * The pattern's first match in `sample` (an answer the pattern reads) with its verdict group replaced by `value`:
 * how a worked example's answer is written for a pattern that needs text around the verdict
 * (`"winner": "(first|second)"`). Null when the pattern does not match the sample.
 */
export function respellAnswerMatch(pattern: string, sample: string, value: string): string | null {
  const c = compileAnswerPattern(pattern);
  if (!c.ok) return null;
  const m = c.re.matcher(sample);
  if (!m.find()) return null;
  for (let g = 1; g <= c.re.groupCount(); g++) {
    if (m.group(g) === null || m.group(g) === undefined) continue;
    const whole = m.group(0) ?? '';
    const from = m.start(g) - m.start();
    return whole.slice(0, from) + value + whole.slice(from + (m.end(g) - m.start(g)));
  }
  return null;
}
