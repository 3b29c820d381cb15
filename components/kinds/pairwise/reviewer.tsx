'use client';

import { assignmentOptions } from '@/lib/query/review';
import type { JudgeAssignmentDto, QueueDto } from '@/lib/server/review/dto';
import { JudgePanel } from './judge-panel';
import { QueueReviewScreen } from '@/components/review/queue-review-screen';

export const JUDGE_SHORTCUTS = [
  { keys: ['j', '↓'], label: 'Next criterion' },
  { keys: ['k', '↑'], label: 'Previous criterion' },
  { keys: ['1'], label: 'Response 1 better (then on to the next open criterion)' },
  { keys: ['2'], label: 'Tie' },
  { keys: ['3'], label: 'Response 2 better' },
  { keys: ['t'], label: 'Tie for every open criterion of the focused group' },
  { keys: ['i'], label: 'Show or hide what the focused criterion means' },
  { keys: ['Enter'], label: 'Submit (once every criterion has a choice)' },
  { keys: ['u'], label: 'Undo your last submission' },
  { keys: ['?'], label: 'Show these shortcuts' },
];

export function PairwiseJudge({ initialQueue }: { initialQueue: QueueDto }) {
  return (
    <QueueReviewScreen
      initialQueue={initialQueue}
      itemOptions={assignmentOptions<JudgeAssignmentDto>}
      testId="judge"
      anchor={(shown) => shown?.assignmentId}
      kind="Pairwise judgment"
      shortcuts={JUDGE_SHORTCUTS}
      thing="item"
      done={(total) => `You have judged all ${total} items assigned to you in this study.`}
      panel={(props) => <JudgePanel key={props.assignment.assignmentId} {...props} />}
    />
  );
}
