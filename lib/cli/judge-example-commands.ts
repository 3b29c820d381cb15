import fs from 'node:fs';
import { compareStudyJudgeRuns } from '@/lib/server/judges/compare';
import { judgeRunDisagreements, newTemplateFromDisagreements } from '@/lib/server/judges/examples';
import { parseStudyId } from '@/lib/server/studies/studies';
import { cliActor } from '@/lib/server/system/system';
import type { Command } from './commands';
import { out, required, str } from './format';

/*
 * Prompts from disagreements (issue 28, point 4): the items a launched run's judge got wrong, a new template
 * version with some of them as worked examples, and the comparison of runs that leaves those items out.
 */

const list = (s: string | undefined) =>
  s
    ?.split(',')
    .map((x) => x.trim())
    .filter(Boolean);

const rate = (x: number | null) => (x === null ? '—' : `${(100 * x).toFixed(1)} %`);

export const JUDGE_EXAMPLE_COMMANDS: Command[] = [
  {
    name: 'judge disagreements',
    usage: 'judge disagreements --study STUDY --run RUN [--json]',
    summary: "Lists the items where a launched run's judge disagreed with the settled ground truth (the first 500).",
    options: { study: { type: 'string' }, run: { type: 'string' }, json: { type: 'boolean' } },
    run(v) {
      const d = judgeRunDisagreements(cliActor(), parseStudyId(required(v, 'study')), required(v, 'run'));
      if (v.json) return out(`${JSON.stringify(d, null, 2)}\n`);
      out(`The judge of "${d.run}" (${d.template.name} v${d.template.version}) disagreed with the ground truth on ${d.items} item(s).\n`);
      for (const x of d.list) out(`${x.item}: ${x.criteria.map((c) => `${c.id} judge ${c.judge}, settled ${c.settled}`).join('; ')}\n`);
    },
  },
  {
    name: 'judge examples',
    usage: 'judge examples --study STUDY --run RUN (--k K [--seed N] | --items ID,ID…) [--out FILE.json] [--json]',
    summary:
      "Makes the next version of a launched run's template with worked examples: K items (seed 1 unless --seed) drawn from those\n" +
      '      where its judge disagreed with the settled ground truth, or the items named. --out writes the new version for judge run --prompt.\n' +
      "      Comparing runs leaves the examples' items out of every run's alignment and κ.",
    options: {
      study: { type: 'string' },
      run: { type: 'string' },
      k: { type: 'string' },
      seed: { type: 'string' },
      items: { type: 'string' },
      out: { type: 'string' },
      json: { type: 'boolean' },
    },
    run(v) {
      const r = newTemplateFromDisagreements(cliActor(), parseStudyId(required(v, 'study')), {
        run: required(v, 'run'),
        k: str(v, 'k'),
        seed: str(v, 'seed'),
        items: list(str(v, 'items')),
      });
      const file = str(v, 'out');
      if (file) fs.writeFileSync(file, `${JSON.stringify(JSON.parse(r.template.body), null, 2)}\n`);
      if (v.json) return out(`${JSON.stringify(r, null, 2)}\n`);
      const how = r.chosen.by === 'seed' ? `drawn with seed ${r.chosen.seed}` : 'chosen';
      out(
        `Template ${r.template.name} v${r.template.version}: ${r.examples.length} worked example(s) ${how} from the ${r.disagreements} item(s) ` +
          `where "${r.from.run}" (v${r.from.template.version}) disagreed: ${r.examples.map((e) => e.item).join(', ')}.\n` +
          (file ? `Written to ${file}; run it with judge run --prompt ${file}.\n` : ''),
      );
    },
  },
  {
    name: 'judge compare',
    usage: 'judge compare --study STUDY --runs A,B[,…] [--sample N] [--json]',
    summary:
      "Sets a study's judge runs side by side: on a pairwise study alignment with and without ties and Cohen's κ, on a rubric study\n" +
      '      (one sample of each run, 1 unless --sample) accuracy, macro-F1 and κ strict and lenient; tokens and cost. Items a compared\n' +
      "      run's template shows as worked examples are left out of every run's scores, and the comparison says so.",
    options: { study: { type: 'string' }, runs: { type: 'string' }, sample: { type: 'string' }, json: { type: 'boolean' } },
    run(v) {
      const sample = str(v, 'sample');
      const c = compareStudyJudgeRuns(
        cliActor(),
        parseStudyId(required(v, 'study')),
        list(required(v, 'runs')) ?? [],
        sample === undefined ? 1 : Number(sample),
      );
      if (v.json) return out(`${JSON.stringify(c.comparison, null, 2)}\n`);
      const kappa = (x: number | null) => (x === null ? '—' : x.toFixed(3));
      const cost = (x: number | null) => (x === null ? '' : `, cost $${x.toFixed(4)}`);
      if (c.kind === 'criteria')
        for (const r of c.comparison.runs)
          out(
            `${r.name}${r.template ? ` (${r.template})` : ''}: n ${r.n}, alignment ${rate(r.alignment)}, without ties ${rate(r.alignmentNoTies)}, ` +
              `κ ${kappa(r.kappa)}${cost(r.cost)}\n`,
          );
      else
        for (const r of c.comparison.runs)
          out(
            `${r.name}${r.template ? ` (${r.template})` : ''}, sample ${c.comparison.sample}: n ${r.n}, accuracy ${rate(r.alignment)}, ` +
              `macro-F1 ${kappa(r.macroF1)}, κ ${kappa(r.kappa)}${cost(r.cost)}\n`,
          );
      if (c.comparison.leftOut) out(`${c.comparison.leftOut.note}\n`);
    },
  },
];
