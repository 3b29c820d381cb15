import type { Db } from '@/db/client';
import * as q from '@/db/queries/assignments';
import type { FlowDecisionDto } from '@/lib/server/review/dto';
import { parseInput } from '@/lib/server/parse';
import { flowDecisionFor } from '@/lib/validation/flow';
import type { FlowItem } from '@/lib/validation/flow';
import { flowWarnings } from '@/lib/validation/flow-warnings';
import { flowDraftSchema, submitFlowSchema } from '@/lib/validation/review';
import { defineSubmission, type ReviewFacet } from '../facets/review';

/** A stored decision as the reviewer's screen shows it; null for an annotation without one. */
export function decisionOf(row: q.AnnotationRow | undefined): FlowDecisionDto | null {
  if (!row?.decision) return null;
  return {
    decision: row.decision,
    ...(row.afterStep !== null ? { afterStep: row.afterStep } : {}),
    ...(row.reasons ? { reasons: JSON.parse(row.reasons) as string[] } : {}),
    ...(row.note ? { note: row.note } : {}),
  };
}

/** Checks a decision against the flow it is about: truncation must keep at least one step and drop at least one. */
export function parseFlowDecision(raw: unknown, stepCount: number): FlowDecisionDto {
  return parseInput(flowDecisionFor(stepCount), raw) as FlowDecisionDto;
}

/** A flow decision: verify, truncate after a step, or discard with reasons; checked against the flow's steps. */
export const flowReview: ReviewFacet = {
  itemNumber: 'item',
  draftSchema: flowDraftSchema,
  history: { id: true, text: 'Problem' },
  parseSubmission(input) {
    const { decision: raw, ...request } = parseInput(submitFlowSchema, input);
    return {
      request,
      submission: defineSubmission({
        content: (db: Db, a: q.AssignmentRow) => {
          const d = parseFlowDecision(raw, q.itemPayload(db, a.itemId)!.stepCount ?? 0);
          return {
            decision: d.decision,
            afterStep: d.decision === 'truncate' ? d.afterStep! : null,
            reasons: d.decision === 'discard' ? d.reasons! : null,
            note: d.note?.trim() || null,
          };
        },
        write: (db, _a, _study, stored, base) => q.insertAnnotation(db, { ...base, ...stored }).revision,
      }),
    };
  },
  view: (db, _study, a, { remarks }) => {
    const item = q.itemPayload(db, a.itemId)!;
    const flow = JSON.parse(item.payload) as FlowItem;
    const draft = q.findDraft(db, a.id);
    return {
      kind: 'flow_review',
      assignmentId: a.id,
      studyId: a.studyId,
      queuePosition: a.queuePosition,
      state: a.state,
      externalId: item.externalId,
      flow,
      warnings: flowWarnings(flow),
      draft: draft ? flowDraftSchema.parse(draft) : null,
      submitted: a.state === 'submitted' ? decisionOf(q.latestAnnotation(db, a.id)) : null,
      activeMs: a.activeMs,
      remarks,
    };
  },
  draftOf: (_db, _study, _a, annotation) => ({ ...decisionOf(annotation) }),
};
