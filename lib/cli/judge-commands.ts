import type { JudgeRunRecipeDto } from '@/lib/server/judges/dto';
import { listJudgeRuns } from '@/lib/server/analytics/runs';
import { combineJudgeRuns } from '@/lib/server/judges/combine';
import { parseStudyId } from '@/lib/server/studies/studies';
import { cliActor } from '@/lib/server/system/system';
import type { Command } from './commands';
import { out, required, str } from './format';



/** One line saying how a combined run was made. */
export function recipeText(r: JudgeRunRecipeDto): string {
  const left = [r.counts.tie ? `${r.counts.tie} tied` : '', r.counts.missing ? `${r.counts.missing} missing a verdict` : ''].filter(
    Boolean,
  );
  return (
    `${r.rule} of ${r.runs.join(', ')}` +
    (r.missing === 'ignore' ? ' (missing verdicts ignored)' : '') +
    `: ${r.counts.combined} of ${r.counts.pairs} item × criterion pairs combined` +
    (left.length ? `, left unjudged: ${left.join(', ')}` : '')
  );
}

export const JUDGE_COMMANDS: Command[] = [
  {
    name: 'judge combine',
    usage: 'judge combine --study STUDY --runs A,B[,…] --rule all|any|majority --name NAME [--missing unjudged|ignore] [--json]',
    summary:
      'Combines judge runs into a new run, analysed like any other: majority (a tie is left unjudged and counted); all and\n' +
      '      any need a desired label, which pairwise labels do not have. --missing ignore combines the verdicts there are.',
    options: {
      study: { type: 'string' },
      runs: { type: 'string' },
      rule: { type: 'string' },
      name: { type: 'string' },
      missing: { type: 'string' },
      json: { type: 'boolean' },
    },
    run(v) {
      const r = combineJudgeRuns(cliActor(), parseStudyId(required(v, 'study')), {
        runs: required(v, 'runs'),
        rule: required(v, 'rule'),
        name: required(v, 'name'),
        missing: str(v, 'missing'),
      });
      if (v.json) return out(`${JSON.stringify(r, null, 2)}\n`);
      out(`Combined run "${r.run}" in study ${r.studyId}: ${recipeText(r.recipe)}.\n`);
    },
  },
  {
    name: 'judge runs',
    usage: 'judge runs --study STUDY [--json]',
    summary: 'Lists the judge runs of a study: verdicts, unreadable records, and how each combined run was made.',
    options: { study: { type: 'string' }, json: { type: 'boolean' } },
    run(v) {
      const studyId = parseStudyId(required(v, 'study'));
      const runs = listJudgeRuns(cliActor(), studyId);
      if (v.json) return out(`${JSON.stringify({ studyId, runs }, null, 2)}\n`);
      if (!runs.length) return out(`Study ${studyId} has no judge runs.\n`);
      out(
        runs
          .map(
            (r) => `${r.name}: ${r.labels} verdicts, ${r.unparsed} unreadable` + (r.recipe ? ` — combined, ${recipeText(r.recipe)}` : ''),
          )
          .join('\n') + '\n',
      );
    },
  },
];
