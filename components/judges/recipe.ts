import type { JudgeRunRecipeDto } from '@/lib/server/judges/dto';

const RULE_TEXT: Record<JudgeRunRecipeDto['rule'], string> = {
  all: 'all (the desired label only where every verdict gave it)',
  any: 'any (the desired label where one verdict gave it)',
  majority: 'majority',
};

/** One plain sentence saying how a combined run was made and what it left unjudged. */
export function recipeSentence(r: JudgeRunRecipeDto): string {
  const left = [
    r.counts.tie ? `${r.counts.tie.toLocaleString('en-US')} tied` : '',
    r.counts.missing ? `${r.counts.missing.toLocaleString('en-US')} missing a verdict` : '',
  ].filter(Boolean);
  return (
    `Combined by ${RULE_TEXT[r.rule]} from ${r.runs.join(', ')}${r.missing === 'ignore' ? ', missing verdicts ignored' : ''}: ` +
    `${r.counts.combined.toLocaleString('en-US')} of ${r.counts.pairs.toLocaleString('en-US')} item × criterion pairs got a verdict` +
    (left.length ? `; left unjudged: ${left.join(', ')}.` : '.')
  );
}
