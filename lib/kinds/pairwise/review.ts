import type { Db } from '@/db/client';
import * as q from '@/db/queries/assignments';
import * as pq from '@/db/queries/pairwise';
import { invalid } from '@/lib/server/errors';
import { parseInput } from '@/lib/server/parse';
import { judgmentDraftSchema, submitJudgmentSchema, type JudgmentDraft } from '@/lib/validation/judging';
import type { PairwiseItem } from '@/lib/validation/pairwise';
import { defineSubmission, type ReviewFacet } from '../facets/review';
import { toCanonical, toScreen } from './blinding';
import { blindItem, criteriaForItem } from './item-view';

/** The draft an undone pairwise submission turns back into: its choices as the reviewer saw them. */
export function judgmentAsDraft(db: Db, annotationId: number, swapped: boolean): JudgmentDraft {
  return { choices: Object.fromEntries(pq.labelsOf(db, annotationId).map((l) => [l.criterion, toScreen(l.label, swapped)])) };
}

/**
 * A pairwise judgment: every applicable criterion must have a choice. Choices arrive as seen on screen and are
 * stored from reply a's side, with the on-screen choice kept.
 */
export const pairwiseReview: ReviewFacet = {
  itemNumber: 'item',
  draftSchema: judgmentDraftSchema,
  history: { id: false, text: 'Problem' },
  parseSubmission(input) {
    const { choices, ...request } = parseInput(submitJudgmentSchema, input);
    return {
      request,
      submission: defineSubmission({
        content: () => ({ choices }),
        write: (db, a, study, _content, base) => {
          const item = JSON.parse(pq.itemRow(db, a.itemId)!.payload) as PairwiseItem;
          const criteria = criteriaForItem(study, item).map((c) => c.id);
          const missing = criteria.filter((c) => !choices[c]);
          const extra = Object.keys(choices).filter((c) => !criteria.includes(c));
          if (missing.length) throw invalid(`Choose for every criterion; missing: ${missing.join(', ')}.`, { choices: 'incomplete' });
          if (extra.length) throw invalid(`Not criteria of this item: ${extra.join(', ')}.`, { choices: 'unknown criterion' });
          const swapped = a.swapped === 1;
          const { id: annotationId, revision } = q.insertAnnotation(db, base);
          pq.insertLabels(
            db,
            annotationId,
            criteria.map((c) => ({ criterion: c, label: toCanonical(choices[c], swapped), screenChoice: choices[c] })),
          );
          return revision;
        },
      }),
    };
  },
  view: (db, study, a, { remarks }) => {
    const swapped = a.swapped === 1;
    const draft = q.findDraft(db, a.id);
    const latest = a.state === 'submitted' ? q.latestAnnotation(db, a.id) : undefined;
    return {
      kind: 'pairwise',
      ...blindItem(study, a.itemId, swapped, db),
      assignmentId: a.id,
      studyId: a.studyId,
      queuePosition: a.queuePosition,
      state: a.state,
      draft: draft ? judgmentDraftSchema.parse(draft) : null,
      submitted: latest ? Object.fromEntries(pq.labelsOf(db, latest.id).map((l) => [l.criterion, toScreen(l.label, swapped)])) : null,
      activeMs: a.activeMs,
      remarks,
    };
  },
  draftOf: (db, _study, a, annotation) => (annotation ? judgmentAsDraft(db, annotation.id, a.swapped === 1) : {}),
};
