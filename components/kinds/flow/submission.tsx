import { FlowContext, FlowSteps } from '@/components/flow/flow-view';
import type { FlowAssignmentDto } from '@/lib/server/review/dto';

/** A submitted flow in its reviewer's history: the decision, the note and the flow with the cut where it was truncated. */
export function FlowSubmission({ view }: { view: FlowAssignmentDto }) {
  return (
    <div className="space-y-4">
      <p className="rounded-lg border border-slate-200 bg-white p-3 text-sm" data-testid="my-decision">
        My decision: <span className="font-medium">{describeDecision(view.submitted)}</span>
        {view.submitted?.note ? <span className="block text-slate-600">Note: {view.submitted.note}</span> : null}
      </p>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <FlowContext flow={view.flow} />
        <FlowSteps
          flow={view.flow}
          warnings={view.warnings}
          focus={-1}
          cutAfter={view.submitted?.decision === 'truncate' ? (view.submitted.afterStep ?? null) : null}
        />
      </div>
    </div>
  );
}

function describeDecision(d: FlowAssignmentDto['submitted']): string {
  if (!d) return '—';
  if (d.decision === 'truncate') return `Truncate after step ${d.afterStep}`;
  if (d.decision === 'discard') return `Discard (${(d.reasons ?? []).join(', ')})`;
  return 'Verify';
}
