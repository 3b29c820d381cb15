'use client';

import { adjudicationItemOptions } from '@/lib/query/review';
import type { AdjudicationQueueDto, RubricAdjudicationItemDto } from '@/lib/server/review/dto';
import { AdjudicationScreen } from '@/components/review/adjudication-screen';
import { RubricAdjudicationPanel } from './adjudication-panel';

export const RUBRIC_ADJUDICATE_SHORTCUTS = [
  { keys: ['j', '↓'], label: 'Next disagreement' },
  { keys: ['k', '↑'], label: 'Previous disagreement' },
  { keys: ['1', '2', '…'], label: 'Final label of the focused dimension (the keys are shown on its buttons)' },
  { keys: ['r'], label: 'Write a rationale for the focused dimension' },
  { keys: ['Esc'], label: 'Leave the rationale field' },
  { keys: ['i'], label: 'Show or hide what the focused dimension means' },
  { keys: ['Enter'], label: 'Settle the item (Ctrl+Enter inside a rationale)' },
  { keys: ['?'], label: 'Show these shortcuts' },
];

export function RubricAdjudicator({ initialQueue }: { initialQueue: AdjudicationQueueDto }) {
  return (
    <AdjudicationScreen
      initialQueue={initialQueue}
      itemOptions={adjudicationItemOptions<RubricAdjudicationItemDto>}
      shortcuts={RUBRIC_ADJUDICATE_SHORTCUTS}
      waitingFor="once every review is in"
      panel={(item) => <RubricAdjudicationPanel key={item.itemId} item={item} />}
    />
  );
}
