'use client';

import { RubricDialogue } from '@/components/kinds/rubric/dialogue';
import { assignmentOptions } from '@/lib/query/review';
import type { QueueDto, RubricAssignmentDto } from '@/lib/server/review/dto';
import { QueueReviewScreen } from '@/components/review/queue-review-screen';
import { RubricPanel } from './panel';

export const RUBRIC_SHORTCUTS = [
  { keys: ['j', '↓'], label: 'Next dimension' },
  { keys: ['k', '↑'], label: 'Previous dimension' },
  { keys: ['1', '2', '…'], label: 'Label the focused dimension (the keys are shown on its buttons), then on to the next open one' },
  { keys: ['i'], label: 'Show or hide what the focused dimension means' },
  { keys: ['n'], label: 'Write a note (Esc leaves the field)' },
  { keys: ['Enter'], label: 'Submit (once every dimension has a label)' },
  { keys: ['u'], label: 'Undo your last submission' },
  { keys: ['?'], label: 'Show these shortcuts' },
];

// The dialogue stays in place for the replies of one group; a new dialogue starts at the top.
const dialogueOf = (shown: RubricAssignmentDto | null) => (shown ? (shown.group?.anchor ?? shown.assignmentId) : undefined);

/**
 * The rubric screen: the dialogue on one side, kept mounted while the replies of the same dialogue follow one
 * another, and the reply under review with its dimensions on the other. Skip, flag, comment, the history and the
 * guidelines panel come from the shared shell, as on the other screens. A skipped reply goes to the end of the
 * queue like any item, leaving its dialogue's other replies where they are; its dialogue shows again when it
 * comes back.
 */
export function RubricReviewer({ initialQueue }: { initialQueue: QueueDto }) {
  return (
    <QueueReviewScreen
      initialQueue={initialQueue}
      itemOptions={assignmentOptions<RubricAssignmentDto>}
      testId="rubric"
      anchor={dialogueOf}
      kind="Rubric labelling"
      shortcuts={RUBRIC_SHORTCUTS}
      thing="item"
      done={(total) => `You have labelled all ${total} items assigned to you in this study.`}
      panel={(props) => (
        <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.1fr)]">
          <div className="min-w-0 lg:sticky lg:top-4 lg:self-start">
            <RubricDialogue
              key={dialogueOf(props.assignment)}
              problem={props.assignment.problem}
              history={props.assignment.history}
              underReview={props.assignment.reply === null}
            />
          </div>
          <RubricPanel key={props.assignment.assignmentId} {...props} />
        </div>
      )}
    />
  );
}
