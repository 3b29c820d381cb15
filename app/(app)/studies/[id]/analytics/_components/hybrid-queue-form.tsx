'use client';

import { useState } from 'react';
import type { PersonDto } from '@/lib/server/accounts/dto';
import type { ActiveQueueDto, HybridQueueDto } from '@/lib/server/analytics/dto';
import { openActiveQueueAction, openHybridQueueAction } from '../actions';
import { ReviewQueueForm, assignmentsText } from './review-queue-form';

type Props = {
  studyId: number;
  judge: string;
  criterion: string;
  target: number;
  people: PersonDto[];
  studyOpen: boolean;
  /** The study's other judge runs, whose disagreement with this one can be the uncertainty (the active order). */
  otherRuns?: string[];
  /** The guarantee's plan (error-bounded acceptance at ε, δ) instead of Padó's: its items only, no order to choose. */
  guaranteed?: { epsilon: number; delta: number };
};
type Order = 'uniform' | 'active';

const field = 'rounded-md border border-slate-300 px-2 py-1 text-sm';

/**
 * Sends items of this judge run to people: in the plan's order (what it routes, plus its random checks), or in
 * active order — items drawn with a probability that grows with the judge's uncertainty, under a budget and a floor,
 * so the corrected win rate and the certification can weight each label by 1/π (issue 28). With `guaranteed`, the
 * items outside the classes the error-bounded acceptance accepts, and nothing else.
 */
export function HybridQueueForm({ studyId, judge, criterion, target, people, studyOpen, otherRuns = [], guaranteed }: Props) {
  const [order, setOrder] = useState<Order>('uniform');
  const [source, setSource] = useState<ActiveQueueDto['source']>('orders');
  const [chosenSecond, setSecondJudge] = useState(otherRuns[0] ?? '');
  // The dashboard's run may change under the form: never offer the run itself as its own second judge.
  const secondJudge = otherRuns.includes(chosenSecond) ? chosenSecond : (otherRuns[0] ?? '');
  const [budget, setBudget] = useState('0.2');
  const [tau, setTau] = useState('0.5');
  if (!studyOpen) return <p className="mt-4 text-sm text-slate-500">Open the study to send the routed items to people.</p>;
  if (guaranteed) {
    return (
      <ReviewQueueForm<HybridQueueDto>
        className="mt-4 space-y-2 border-t border-slate-100 pt-4"
        intro={
          <>
            Send every unreviewed item outside the classes accepted with the guarantee to these reviewers (one review per item, no random
            checks: the accepted labels are certified; their reviews become ground truth):
          </>
        }
        people={people}
        open={(usernames) =>
          openHybridQueueAction(studyId, { judge, criterion, target, usernames, plan: 'guaranteed' as const, ...guaranteed })
        }
        opened={(d) =>
          `Queued ${d.routed + d.extra} item(s) (${d.routed} routed, ${d.extra} random checks of accepted labels): ${assignmentsText(d)}.`
        }
      />
    );
  }
  const orderSelect = (
    <label className="flex items-center gap-2 text-sm">
      Order
      <select className={field} value={order} onChange={(e) => setOrder(e.target.value as Order)}>
        <option value="uniform">uniform (the plan’s items)</option>
        <option value="active">active (by the judge’s uncertainty)</option>
      </select>
    </label>
  );
  if (order === 'uniform') {
    return (
      <ReviewQueueForm<HybridQueueDto>
        className="mt-4 space-y-2 border-t border-slate-100 pt-4"
        intro={
          <>
            Send the unreviewed items this plan routes to people — every item the judge put in a reviewed class, plus the random checks the
            target needs — to these reviewers (one review per item; their reviews become ground truth):
          </>
        }
        people={people}
        open={(usernames) => openHybridQueueAction(studyId, { judge, criterion, target, usernames })}
        opened={(d) =>
          `Queued ${d.routed + d.extra} item(s) (${d.routed} routed, ${d.extra} random checks of accepted labels): ${assignmentsText(d)}.`
        }
      >
        {orderSelect}
      </ReviewQueueForm>
    );
  }
  return (
    <ReviewQueueForm<ActiveQueueDto>
      className="mt-4 space-y-2 border-t border-slate-100 pt-4"
      intro={
        <>
          Draw unreviewed items for people, each with a probability that grows with the judge’s uncertainty about it (the budget is the
          share of them people are expected to label; τ·budget is the smallest probability). The draw is stored, and the corrected win rate
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
        `Drew ${d.drawn} of ${d.pool} item(s) (${d.expectedLabels.toFixed(1)} expected) by ${
          d.source === 'orders'
            ? 'the disagreement of the two orders'
            : d.source === 'samples'
              ? 'the spread of the samples'
              : d.source === 'confidence'
                ? 'the judge’s own confidence'
                : `the disagreement with ${d.secondJudge}`
        }: ${assignmentsText(d)}.`
      }
    >
      {orderSelect}
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
        <label className="flex items-center gap-2">
          Uncertainty from
          <select className={field} value={source} onChange={(e) => setSource(e.target.value as typeof source)}>
            <option value="orders">the two orders of this run</option>
            <option value="samples">the spread of this run’s samples (runs launched from Concord)</option>
            <option value="confidence">this run’s confidence per verdict (1 − confidence)</option>
            <option value="second_judge" disabled={otherRuns.length === 0}>
              a second judge run
            </option>
          </select>
        </label>
        {source === 'second_judge' && (
          <label className="flex items-center gap-2">
            Second run
            <select className={field} value={secondJudge} onChange={(e) => setSecondJudge(e.target.value)}>
              {otherRuns.map((name) => (
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
