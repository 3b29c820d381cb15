/**
 * The gold report's table as column specs (docs/decisions/0030): each reviewer's accuracy on gold items, with its
 * 95 % Wilson interval and whether it is under the lead's threshold.
 */
import type { GoldAccuracyDto, GoldReviewerDto } from '@/lib/server/review/dto';
import type { TableSpec } from './columns';
import { stat } from './columns';

export const goldTables = {
  reviewers: {
    id: 'reviewers',
    title: 'Accuracy on gold items',
    rows: (dto) => dto.reviewers,
    columns: [
      { id: 'username', csv: 'username', header: 'Reviewer', value: 'text', get: (r) => r.username },
      { id: 'items', csv: 'gold_items', header: 'Gold items', value: 'count', get: (r) => r.items },
      { id: 'compared', csv: 'compared', header: 'Answers compared', value: 'count', get: (r) => r.compared },
      { id: 'correct', csv: 'correct', header: 'Correct', value: 'count', get: (r) => r.correct },
      stat('accuracy', 'accuracy', 'Accuracy', 'percent'),
      {
        id: 'below',
        csv: 'below_threshold',
        header: 'Below threshold',
        value: 'text',
        get: (r) => r.below,
        display: (r) => (r.below ? 'yes' : ''),
      },
    ],
    rowKey: (r) => String(r.userId),
  } satisfies TableSpec<GoldAccuracyDto, GoldReviewerDto>,
};
