import { ItemWithMyLabels } from '@/components/review/my-labels';
import type { JudgeAssignmentDto } from '@/lib/server/review/dto';
import { CHOICE_LABEL } from './choices';
import { ItemContext } from './item-context';
import { ResponsePair } from './response-pair';

/** A submitted pairwise item in its reviewer's history: the item, both replies and the choice per criterion. */
export function PairwiseSubmission({ view }: { view: JudgeAssignmentDto }) {
  return (
    <ItemWithMyLabels
      item={
        <>
          <ItemContext problem={view.problem} instructions={view.instructions} principles={view.principles} history={view.history} />
          <ResponsePair responses={view.responses} />
        </>
      }
      rows={view.criteria.map((c) => ({
        id: c.id,
        name: c.name,
        description: c.description,
        label: view.submitted?.[c.id] ? CHOICE_LABEL[view.submitted[c.id]] : '—',
      }))}
    />
  );
}
