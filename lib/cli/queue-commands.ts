import { type HybridQueueDto, uncertaintySourceText } from '@/lib/server/analytics/dto';
import { openHybridQueue } from '@/lib/server/analytics/hybrid-queue';
import { openActiveQueue } from '@/lib/server/analytics/review-queue-active';
import { invalid } from '@/lib/server/errors';
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

/** The options each order reads; one of the other order is refused rather than silently ignored. */
const PLAN_FLAGS = ['plan', 'target', 'epsilon', 'delta', 'lenient', 'sample', 'per-tutor'] as const;
const ACTIVE_FLAGS = ['source', 'second-judge', 'budget', 'tau'] as const;

const given = (v: Values, flags: readonly string[]) => flags.filter((f) => v[f] !== undefined && v[f] !== false);

const assignmentsText = (d: { assignments: { username: string; items: number }[] }) =>
  d.assignments.map((a) => `${a.username} ${a.items}`).join(', ');

function openPlanQueue(v: Values, studyId: number, usernames: string[]) {
  const dto: HybridQueueDto = openHybridQueue(cliActor(), studyId, {
    judge: str(v, 'judge') ?? '',
    criterion: str(v, 'criterion'),
    target: str(v, 'target'),
    epsilon: str(v, 'epsilon'),
    delta: str(v, 'delta'),
    plan: str(v, 'plan'),
    sample: str(v, 'sample'),
    lenient: v.lenient === true,
    perTutor: v['per-tutor'] === true,
    usernames,
  });
  if (v.json) return printJson(dto);
  out(`Queued ${dto.routed + dto.extra} item(s) (${dto.routed} routed, ${dto.extra} random checks): ${assignmentsText(dto)}.\n`);
}

function openActive(v: Values, studyId: number, usernames: string[]) {
  const dto = openActiveQueue(cliActor(), studyId, {
    judge: str(v, 'judge') ?? '',
    criterion: str(v, 'criterion'),
    source: str(v, 'source'),
    secondJudge: str(v, 'second-judge'),
    budget: str(v, 'budget'),
    tau: str(v, 'tau'),
    usernames,
  });
  if (v.json) return printJson(dto);
  out(
    `Drew ${dto.drawn} of ${dto.pool} item(s) (${dto.expectedLabels.toFixed(1)} expected, seed ${dto.seed}) by ${uncertaintySourceText(dto)}: ${assignmentsText(dto)}.\n`,
  );
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
      const studyId = parseStudyId(study ?? '');
      const order = str(v, 'order') ?? 'uniform';
      if (order !== 'uniform' && order !== 'active') throw invalid('--order is uniform or active.');
      const wrong = given(v, order === 'active' ? PLAN_FLAGS : ACTIVE_FLAGS);
      if (wrong.length)
        throw invalid(
          `${wrong.map((f) => `--${f}`).join(', ')}: not an option of the ${order} order (--order ${order === 'active' ? 'uniform' : 'active'}).`,
        );
      if (order === 'active') openActive(v, studyId, usernames);
      else openPlanQueue(v, studyId, usernames);
    },
  },
];
