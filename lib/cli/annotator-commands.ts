import type { ExcludedLabelsDto } from '@/lib/server/analytics/dto';
import { annotatorExclusions, excludeAnnotator, includeAnnotator } from '@/lib/server/analytics/annotators-exclusions';
import { parseStudyId } from '@/lib/server/studies/studies';
import { cliActor } from '@/lib/server/system/system';
import type { Command } from './commands';
import { out, required } from './format';

/** Excluding an annotator from a study's ground truth and reports, and including them again (decision 0029). */

function print(v: Record<string, unknown>, x: ExcludedLabelsDto) {
  if (v.json) return out(`${JSON.stringify(x)}\n`);
  if (!x.annotators.length) return out('No annotator is excluded; every label counts.\n');
  out(
    `Excluded: ${x.annotators.map((a) => `${a.username} (${a.labels} label(s), by ${a.excludedBy})`).join(', ')}; ${x.labels} label(s) left out.\n`,
  );
}

const options = { study: { type: 'string' }, user: { type: 'string' }, json: { type: 'boolean' } } as const;

export const ANNOTATOR_COMMANDS: Command[] = [
  {
    name: 'annotator exclude',
    usage: 'annotator exclude --study STUDY --user USERNAME [--json]',
    summary:
      "Leaves the annotator's labels out of the study's ground truth and every report (the reports say how many and whose);\n" +
      '      recorded in the audit log. `annotator include` undoes it.',
    options,
    run(v) {
      print(v, excludeAnnotator(cliActor(), parseStudyId(required(v, 'study')), required(v, 'user')));
    },
  },
  {
    name: 'annotator include',
    usage: 'annotator include --study STUDY --user USERNAME [--json]',
    summary: "Counts an excluded annotator's labels again; recorded in the audit log.",
    options,
    run(v) {
      print(v, includeAnnotator(cliActor(), parseStudyId(required(v, 'study')), required(v, 'user')));
    },
  },
  {
    name: 'annotator excluded',
    usage: 'annotator excluded --study STUDY [--json]',
    summary: 'Lists the annotators excluded from the study and the labels left out.',
    options: { study: { type: 'string' }, json: { type: 'boolean' } },
    run(v) {
      print(v, annotatorExclusions(cliActor(), parseStudyId(required(v, 'study'))));
    },
  },
];
