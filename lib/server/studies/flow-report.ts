import 'server-only';
import * as z from 'zod';
import { getDb } from '@/db/client';
import * as fr from '@/db/queries/flow-review';
import * as studiesQ from '@/db/queries/studies';
import { pageNumberSchema } from '@/lib/validation/common';
import type { Actor } from '../actor';
import { parseInput } from '../parse';
import { studyForStaff } from '../review/access';
import type { FlowListDto, FlowReportDto } from './dto';

/**
 * The least active time a submitted flow counts for in a reviewer's items per hour. Active time is what the screen
 * credits while the flow is open; a flow submitted a fraction of a second after it appeared (a key held down, a
 * decision made on the item before) would otherwise make one reviewer's rate 20,000/h. With each flow counted as at
 * least 10 s the rate is at most 360/h, and a reviewer who takes 10 s or more per flow is measured exactly.
 */
export const MIN_SECONDS_PER_ITEM = 10;

export function flowReport(actor: Actor, studyId: number): FlowReportDto {
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  const counts = Object.fromEntries(fr.decisionCounts(db, studyId).map((r) => [r.decision, r.n]));
  const reviewers = fr.reviewerStats(db, studyId, MIN_SECONDS_PER_ITEM * 1000).map((r) => ({
    username: r.username,
    displayName: r.displayName,
    assigned: r.assigned,
    submitted: r.submitted,
    activeSeconds: Math.round(r.activeMs / 1000),
    itemsPerHour: r.submitted > 0 ? Math.round((r.submitted / (r.rateMs / 3_600_000)) * 10) / 10 : null,
    payout: (r.submitted * study.payRateCents) / 100,
  }));
  return {
    studyId,
    items: studiesQ.countItems(db, studyId),
    assigned: reviewers.reduce((s, r) => s + r.assigned, 0),
    submitted: reviewers.reduce((s, r) => s + r.submitted, 0),
    verified: counts.verify ?? 0,
    truncated: counts.truncate ?? 0,
    discarded: counts.discard ?? 0,
    discardReasons: Object.fromEntries(fr.discardReasonCounts(db, studyId).map((r) => [r.reason, r.n])),
    payRateCents: study.payRateCents,
    reviewers,
    perDay: fr.submissionsPerDay(db, studyId),
  };
}

export const FLOW_LIST_PAGE_SIZE = 50;

const blankToUndefined = (v: unknown) => (v === '' ? undefined : v);
const filterText = z.preprocess(
  blankToUndefined,
  z.string({ error: 'must be one text' }).trim().max(200, { error: 'must be at most 200 characters' }).optional(),
);

/** The flow list's filters as the page's URL gives them. An unknown decision shows every flow, as before. */
const flowListFilterSchema = z.object({
  decision: z.enum(['verify', 'truncate', 'discard', 'pending']).optional().catch(undefined),
  reviewer: filterText,
  search: filterText,
  page: pageNumberSchema,
});

/** One page of a flow-review study's flows with their reviewers and decisions; a page or filter out of range is refused. */
export function listFlowDecisions(actor: Actor, studyId: number, input: unknown): FlowListDto {
  const db = getDb();
  studyForStaff(db, actor, studyId);
  const { decision, reviewer, search, page = 1 } = parseInput(flowListFilterSchema, input);
  const { total, rows } = fr.listFlows(db, studyId, {
    decision,
    reviewer,
    search,
    limit: FLOW_LIST_PAGE_SIZE,
    offset: (page - 1) * FLOW_LIST_PAGE_SIZE,
  });
  return {
    total,
    page,
    rows: rows.map((r) => ({
      itemId: r.itemId,
      externalId: r.externalId,
      stepCount: r.stepCount,
      reviewers: r.reviewers ? r.reviewers.split(',') : [],
      decisions: r.decisions ? r.decisions.split(',') : [],
      state: r.assigned > 0 && r.submitted === r.assigned ? 'done' : 'pending',
    })),
  };
}
