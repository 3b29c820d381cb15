'use client';

import { adjudicationItemOptions } from '@/lib/query/review';
import type { AdjudicationItemDto, AdjudicationQueueDto } from '@/lib/server/review/dto';
import { AdjudicationScreen } from '@/components/review/adjudication-screen';
import { AdjudicationPanel } from './adjudication-panel';

export const ADJUDICATE_SHORTCUTS = [
  { keys: ['j', '↓'], label: 'Next disagreement' },
  { keys: ['k', '↑'], label: 'Previous disagreement' },
  { keys: ['1'], label: 'Final label: Response 1 better' },
  { keys: ['2'], label: 'Final label: Tie' },
  { keys: ['3'], label: 'Final label: Response 2 better' },
  { keys: ['r'], label: 'Write a rationale for the focused criterion (the only way keys reach the field)' },
  { keys: ['Esc'], label: 'Leave the rationale field, back to the criteria' },
  { keys: ['i'], label: 'Show or hide what the focused criterion means' },
  { keys: ['Enter'], label: 'Settle the item (Ctrl+Enter inside a rationale)' },
  { keys: ['?'], label: 'Show these shortcuts' },
];

export function Adjudicator({ initialQueue }: { initialQueue: AdjudicationQueueDto }) {
  return (
    <AdjudicationScreen
      initialQueue={initialQueue}
      itemOptions={adjudicationItemOptions<AdjudicationItemDto>}
      shortcuts={ADJUDICATE_SHORTCUTS}
      waitingFor="once both reviews are in"
      panel={(item) => <AdjudicationPanel key={item.itemId} item={item} />}
    />
  );
}
