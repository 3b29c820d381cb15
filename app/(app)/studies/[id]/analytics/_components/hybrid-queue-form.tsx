'use client';

import { useState } from 'react';
import type { PersonDto } from '@/lib/server/accounts/dto';
import { type ActiveQueueDto, type HybridQueueDto, uncertaintySourceText } from '@/lib/server/analytics/dto';
import { openActiveQueueAction, openHybridQueueAction } from '../actions';
import { ReviewQueueForm, assignmentsText } from './review-queue-form';

type Props = {
  studyId: number;
  judge: string;
  criterion: string;
  target: number;
  /** Whether the plan folds labels leniently; absent where the study's entries cannot be folded. */
  lenient?: boolean;
  /** What a group with a plan of its own is (a rubric study's tutor): offer to follow each one's; null: none. */
  group: string | null;
  /** What the judge labels, counted: "item(s)", "repl(ies)". */
  counted: string;
  people: PersonDto[];
  studyOpen: boolean;
  /**
   * The study's other judge runs, whose disagreement with this one can be the uncertainty; given only where the queue
   * can draw in active order.
   */
  otherRuns?: string[];
  /** Where the active order's uncertainty may come from on this kind, the default first. */
  sources?: ActiveQueueDto['source'][];
  /** The guarantee's plan (error-bounded acceptance at ε, δ) instead of Padó's: its items only, no order to choose. */
  guaranteed?: { epsilon: number; delta: number };
};
type Order = 'uniform' | 'active';

const field = 'rounded-md border border-slate-300 px-2 py-1 text-sm';

/** How the selector names each source of the judge's uncertainty. */
const SOURCE_WORDS: Record<ActiveQueueDto['source'], string> = {
  orders: 'the two orders of this run',
  samples: 'the spread of this run’s samples (a run with several)',
  confidence: 'this run’s confidence per verdict (1 − confidence)',
  second_judge: 'a second judge run',
};

/**
 * Sends items of this judge run to people, for every kind of study: in the plan's order (what it routes, plus its
 * random checks), or — where offered — in active order: items drawn with a probability that grows with the judge's
 * uncertainty, under a budget and a floor, so the corrected estimates (a win rate, a rubric study's share) and the
 * certification can weight each label by 1/π (issue 28); the sources offered are the kind's (`sources`). With
 * `guaranteed`, the items outside the classes the error-bounded acceptance accepts, and nothing else. `concord queue
 * open` does the same from the command line.
 */
export function HybridQueueForm({
  studyId,
  judge,
  criterion,
  target,
  lenient,
  group,
  counted,
  people,
  studyOpen,
  otherRuns,
  sources = [],
  guaranteed,
}: Props) {
  const [order, setOrder] = useState<Order>('uniform');
  const [perTutor, setPerTutor] = useState(false);
  const [chosenSource, setSource] = useState<ActiveQueueDto['source'] | null>(null);
  // The kind's first source until one is chosen: a pair's two orders, a rubric run's samples.
  const source = chosenSource && sources.includes(chosenSource) ? chosenSource : (sources[0] ?? 'orders');
  const runs = otherRuns ?? [];
  const [chosenSecond, setSecondJudge] = useState(runs[0] ?? '');
  // The dashboard's run may change under the form: never offer the run itself as its own second judge.
  const secondJudge = runs.includes(chosenSecond) ? chosenSecond : (runs[0] ?? '');
  const [budget, setBudget] = useState('0.2');
  const [tau, setTau] = useState('0.5');
  if (!studyOpen) return <p className="mt-4 text-sm text-slate-500">Open the study to send the routed {counted} to people.</p>;
  const className = 'mt-4 space-y-2 border-t border-slate-100 pt-4';
  const opened = (d: HybridQueueDto) =>
    `Queued ${d.routed + d.extra} ${counted} (${d.routed} routed, ${d.extra} random checks): ${assignmentsText(d)}.`;
  const perTutorBox = group ? (
    <label className="flex items-center gap-2 text-sm">
      <input type="checkbox" checked={perTutor} onChange={(e) => setPerTutor(e.target.checked)} />
      {guaranteed
        ? `Follow each ${group}’s own guarantee (its own accepted labels)`
        : `Follow each ${group}’s own plan (its own trusted label and random checks)`}
    </label>
  ) : null;
  const plan = { judge, criterion, target, ...(lenient === undefined ? {} : { lenient }), ...(group ? { perTutor } : {}) };
  if (guaranteed) {
    return (
      <ReviewQueueForm<HybridQueueDto>
        className={className}
        intro={
          <>
            Send every unreviewed {counted} outside the classes accepted with the guarantee to these reviewers (one review each, no random
            checks: the accepted labels are certified; their reviews become ground truth):
          </>
        }
        people={people}
        open={(usernames) => openHybridQueueAction(studyId, { ...plan, usernames, plan: 'guaranteed' as const, ...guaranteed })}
        opened={opened}
      >
        {perTutorBox}
      </ReviewQueueForm>
    );
  }
  const orderSelect = otherRuns ? (
    <label className="flex items-center gap-2 text-sm">
      Order
      <select className={field} value={order} onChange={(e) => setOrder(e.target.value as Order)}>
        <option value="uniform">uniform (the plan’s items)</option>
        <option value="active">active (by the judge’s uncertainty)</option>
      </select>
    </label>
  ) : null;
  if (order === 'uniform' || !otherRuns) {
    return (
      <ReviewQueueForm<HybridQueueDto>
        className={className}
        intro={
          <>
            Send the unreviewed {counted} this plan routes to people — every one the judge put in a reviewed class, plus the random checks
            the target needs — to these reviewers (one review each; their reviews become ground truth):
          </>
        }
        people={people}
        open={(usernames) => openHybridQueueAction(studyId, { ...plan, usernames })}
        opened={opened}
      >
        {orderSelect}
        {perTutorBox}
      </ReviewQueueForm>
    );
  }
  return (
    <ReviewQueueForm<ActiveQueueDto>
      className={className}
      intro={
        <>
          Draw unreviewed {counted} for people, each with a probability that grows with the judge’s uncertainty about it (the budget is the
          share of them people are expected to label; τ·budget is the smallest probability). The draw is stored, and the corrected estimates
          and the certification of this run then weight each label by 1 / its probability.
        </>
      }
      people={people}
      open={(usernames) =>
        openActiveQueueAction(studyId, {
          judge,
          criterion,
          source,
          ...(source === 'second_judge' ? { secondJudge } : {}),
          budget,
          tau,
          usernames,
        })
      }
      opened={(d) =>
        `Drew ${d.drawn} of ${d.pool} ${counted} (${d.expectedLabels.toFixed(1)} expected) by ${uncertaintySourceText(d)}: ${assignmentsText(d)}.`
      }
    >
      {orderSelect}
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
        <label className="flex items-center gap-2">
          Uncertainty from
          <select className={field} value={source} onChange={(e) => setSource(e.target.value as typeof source)}>
            {sources.map((s) => (
              <option key={s} value={s} disabled={s === 'second_judge' && runs.length === 0}>
                {SOURCE_WORDS[s]}
              </option>
            ))}
          </select>
        </label>
        {source === 'second_judge' && (
          <label className="flex items-center gap-2">
            Second run
            <select className={field} value={secondJudge} onChange={(e) => setSecondJudge(e.target.value)}>
              {runs.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
        )}
        <label className="flex items-center gap-2">
          Budget
          <input className={`${field} w-20`} inputMode="decimal" value={budget} onChange={(e) => setBudget(e.target.value)} />
        </label>
        <label className="flex items-center gap-2">
          τ (floor)
          <input className={`${field} w-20`} inputMode="decimal" value={tau} onChange={(e) => setTau(e.target.value)} />
        </label>
      </div>
    </ReviewQueueForm>
  );
}
