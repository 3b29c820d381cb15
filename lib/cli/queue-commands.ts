import { uncertaintySourceText } from '@/lib/server/analytics/dto';
import { openReviewQueue } from '@/lib/server/analytics/review-queue-open';
import { parseStudyId } from '@/lib/server/studies/studies';
import { cliActor } from '@/lib/server/system/system';
import type { Command } from './commands';
import { type Values, out, printJson, str } from './format';

/*
 * `concord queue open`: sends items of a judge run to people, as the hybrid dashboard's queue forms do — in the
 * order of the hybrid plan (Padó's, or error-bounded acceptance's with `--plan guaranteed`), or in active order (a
 * draw by the judge's uncertainty, decision 0032). The use-cases parse and check every value, so the messages are
 * the browser's.
 */

const assignmentsText = (d: { assignments: { username: string; items: number }[] }) =>
  d.assignments.map((a) => `${a.username} ${a.items}`).join(', ');

/** The command's options as the use-case names them; a switch not given is left out, as an absent option is. */
function queueInput(v: Values, usernames: string[]) {
  return {
    order: str(v, 'order'),
    judge: str(v, 'judge') ?? '',
    criterion: str(v, 'criterion'),
    plan: str(v, 'plan'),
    target: str(v, 'target'),
    epsilon: str(v, 'epsilon'),
    delta: str(v, 'delta'),
    sample: str(v, 'sample'),
    lenient: v.lenient === true || undefined,
    perTutor: v['per-tutor'] === true || undefined,
    source: str(v, 'source'),
    secondJudge: str(v, 'second-judge'),
    budget: str(v, 'budget'),
    tau: str(v, 'tau'),
    usernames,
  };
}

function queuedText(dto: ReturnType<typeof openReviewQueue>) {
  if ('drawn' in dto)
    return `Drew ${dto.drawn} of ${dto.pool} item(s) (${dto.expectedLabels.toFixed(1)} expected, seed ${dto.seed}) by ${uncertaintySourceText(dto)}: ${assignmentsText(dto)}.\n`;
  return `Queued ${dto.routed + dto.extra} item(s) (${dto.routed} routed, ${dto.extra} random checks): ${assignmentsText(dto)}.\n`;
}

export const QUEUE_COMMANDS: Command[] = [
  {
    name: 'queue open',
    usage:
      'queue open STUDY USERNAME... --judge NAME [--criterion C] [--order uniform|active] [--plan pado|guaranteed] [--target 0.95] ' +
      '[--epsilon 0.05] [--delta 0.05] [--lenient] [--sample 1] [--per-tutor] [--source orders|samples|second_judge|confidence] ' +
      '[--second-judge NAME] [--budget 0.2] [--tau 0.5] [--json]',
    summary:
      "Sends unreviewed items of the judge run to these people's queues, one review each, as the hybrid dashboard does: in the\n" +
      "      hybrid plan's order (--plan pado: the reviewed classes plus random checks; guaranteed: whatever error-bounded\n" +
      '      acceptance at ε, δ does not accept; rubric studies: --lenient, --sample, --per-tutor), or in active order (a draw by\n' +
      "      the judge's uncertainty under --budget with floor τ·budget, stored for the weighted estimates).",
    options: {
      judge: { type: 'string' },
      criterion: { type: 'string' },
      order: { type: 'string' },
      plan: { type: 'string' },
      target: { type: 'string' },
      epsilon: { type: 'string' },
      delta: { type: 'string' },
      lenient: { type: 'boolean' },
      sample: { type: 'string' },
      'per-tutor': { type: 'boolean' },
      source: { type: 'string' },
      'second-judge': { type: 'string' },
      budget: { type: 'string' },
      tau: { type: 'string' },
      json: { type: 'boolean' },
    },
    run(v, [study, ...usernames]) {
      const dto = openReviewQueue(cliActor(), parseStudyId(study ?? ''), queueInput(v, usernames));
      if (v.json) return printJson(dto);
      out(queuedText(dto));
    },
  },
];
