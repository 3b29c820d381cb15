'use client';

import type { PersonDto } from '@/lib/server/accounts/dto';
import { openHybridQueueAction } from '../actions';
import { ReviewQueueForm, assignmentsText } from './review-queue-form';

type Props = {
  studyId: number;
  judge: string;
  criterion: string;
  target: number;
  people: PersonDto[];
  studyOpen: boolean;
  /** The guarantee's plan (error-bounded acceptance at ε, δ) instead of Padó's. */
  guaranteed?: { epsilon: number; delta: number };
};

/** Sends the items this plan routes to people into the chosen reviewers' queues. */
export function HybridQueueForm({ studyId, judge, criterion, target, people, studyOpen, guaranteed }: Props) {
  if (!studyOpen) return <p className="mt-4 text-sm text-slate-500">Open the study to send the routed items to people.</p>;
  return (
    <ReviewQueueForm
      className="mt-4 space-y-2 border-t border-slate-100 pt-4"
      intro={
        guaranteed ? (
          <>
            Send every unreviewed item outside the classes accepted with the guarantee to these reviewers (one review per item, no random
            checks: the accepted labels are certified; their reviews become ground truth):
          </>
        ) : (
          <>
            Send the unreviewed items this plan routes to people — every item the judge put in a reviewed class, plus the random checks the
            target needs — to these reviewers (one review per item; their reviews become ground truth):
          </>
        )
      }
      people={people}
      open={(usernames) =>
        openHybridQueueAction(studyId, {
          judge,
          criterion,
          target,
          usernames,
          ...(guaranteed ? { plan: 'guaranteed' as const, ...guaranteed } : {}),
        })
      }
      opened={(d) =>
        `Queued ${d.routed + d.extra} item(s) (${d.routed} routed, ${d.extra} random checks of accepted labels): ${assignmentsText(d)}.`
      }
    />
  );
}
