'use client';

import { assignmentOptions } from '@/lib/query/review';
import type { FlowAssignmentDto, QueueDto } from '@/lib/server/review/dto';
import { FlowDecisionPanel } from './decision-panel';
import { QueueReviewScreen } from '@/components/review/queue-review-screen';

export const FLOW_SHORTCUTS = [
  { keys: ['j', '↓'], label: 'Next step' },
  { keys: ['k', '↑'], label: 'Previous step' },
  { keys: ['v'], label: 'Verify the flow' },
  { keys: ['t'], label: 'Truncate after the focused step' },
  { keys: ['d'], label: 'Discard the flow' },
  { keys: ['1', '2', '3', '4', '5'], label: 'Toggle a discard reason (while discarding)' },
  { keys: ['n'], label: 'Write a note' },
  { keys: ['Esc'], label: 'Leave the note field' },
  { keys: ['Enter'], label: 'Submit (Ctrl+Enter inside the note)' },
  { keys: ['u'], label: 'Undo your last submission' },
  { keys: ['?'], label: 'Show these shortcuts' },
];

export function FlowReviewer({ initialQueue }: { initialQueue: QueueDto }) {
  return (
    <QueueReviewScreen
      initialQueue={initialQueue}
      itemOptions={assignmentOptions<FlowAssignmentDto>}
      kind="Flow review"
      shortcuts={FLOW_SHORTCUTS}
      thing="flow"
      done={(total) => `You have reviewed all ${total} flows assigned to you in this study.`}
      panel={(props) => <FlowDecisionPanel key={props.assignment.assignmentId} {...props} />}
    />
  );
}
