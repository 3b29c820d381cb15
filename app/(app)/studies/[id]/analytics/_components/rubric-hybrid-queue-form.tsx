'use client';

import { useState } from 'react';
import { Card } from '@/components/ui/card';
import type { PersonDto } from '@/lib/server/accounts/dto';
import { openHybridQueueAction } from '../actions';
import { ReviewQueueForm, assignmentsText } from './review-queue-form';

type Props = {
  studyId: number;
  judge: string;
  criterion: string;
  target: number;
  lenient: boolean;
  people: PersonDto[];
  studyOpen: boolean;
  /** The guarantee's plan (error-bounded acceptance at ε, δ) instead of Padó's. */
  guaranteed?: { epsilon: number; delta: number };
};

/** Sends the replies a rubric hybrid plan routes to people into the chosen reviewers' queues. */
export function RubricQueueForm({ studyId, judge, criterion, target, lenient, people, studyOpen, guaranteed }: Props) {
  const [perTutor, setPerTutor] = useState(false);
  if (!studyOpen) return <p className="text-sm text-slate-500">Open the study to send the routed replies to people.</p>;
  return (
    <Card title={guaranteed ? 'Open a review queue for the labels not accepted' : 'Open a review queue'}>
      <ReviewQueueForm
        className="space-y-2"
        intro={
          guaranteed ? (
            <>
              Send every unreviewed reply outside the labels accepted with the guarantee to these reviewers (one review each, no random
              checks; their reviews become ground truth):
            </>
          ) : (
            <>
              Send the unreviewed replies this plan routes to people — every reply the judge gave a label the plan does not trust, plus the
              random checks the target needs — to these reviewers (one review each; their reviews become ground truth):
            </>
          )
        }
        people={people}
        open={(usernames) =>
          openHybridQueueAction(studyId, {
            judge,
            criterion,
            target,
            lenient,
            perTutor,
            usernames,
            ...(guaranteed ? { plan: 'guaranteed' as const, ...guaranteed } : {}),
          })
        }
        opened={(d) => `Queued ${d.routed + d.extra} repl(ies) (${d.routed} routed, ${d.extra} random checks): ${assignmentsText(d)}.`}
      >
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={perTutor} onChange={(e) => setPerTutor(e.target.checked)} />
          {guaranteed
            ? 'Follow each tutor’s own guarantee (its own accepted labels)'
            : 'Follow each tutor’s own plan (its own trusted label and random checks)'}
        </label>
      </ReviewQueueForm>
    </Card>
  );
}
