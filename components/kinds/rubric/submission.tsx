import { ItemWithMyLabels } from '@/components/review/my-labels';
import type { RubricAssignmentDto } from '@/lib/server/review/dto';
import { RubricDialogue, RubricReply } from './dialogue';

/** A submitted rubric item in its reviewer's history: the dialogue, the reply, the label per dimension and the note. */
export function RubricSubmission({ view }: { view: RubricAssignmentDto }) {
  return (
    <ItemWithMyLabels
      item={
        <>
          <RubricDialogue problem={view.problem} history={view.history} underReview={view.reply === null} />
          {view.reply !== null ? <RubricReply text={view.reply} group={null} /> : null}
        </>
      }
      rows={view.dimensions.map((d) => ({
        id: d.id,
        name: d.name,
        description: d.description ?? undefined,
        label: view.submitted?.labels[d.id] ?? '—',
      }))}
      note={view.submitted?.note ? <p className="mt-2 text-sm text-slate-600">Note: {view.submitted.note}</p> : null}
    />
  );
}
