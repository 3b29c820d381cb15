import 'server-only';
import { getDb } from '@/db/client';
import * as fr from '@/db/queries/flow-review';
import * as studiesQ from '@/db/queries/studies';
import type { Actor } from '../actor';
import { studyForStaff } from '../review/access';
import type { FlowListDto, FlowReportDto } from './dto';

export function flowReport(actor: Actor, studyId: number): FlowReportDto {
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  const counts = Object.fromEntries(fr.decisionCounts(db, studyId).map((r) => [r.decision, r.n]));
  const reviewers = fr.reviewerStats(db, studyId).map((r) => ({
    username: r.username,
    displayName: r.displayName,
    assigned: r.assigned,
    submitted: r.submitted,
    activeSeconds: Math.round(r.activeMs / 1000),
    itemsPerHour: r.activeMs > 0 ? Math.round((r.submitted / (r.activeMs / 3_600_000)) * 10) / 10 : null,
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

export function listFlowDecisions(
  actor: Actor,
  studyId: number,
  filter: { decision?: string; reviewer?: string; search?: string; page?: number },
): FlowListDto {
  const db = getDb();
  studyForStaff(db, actor, studyId);
  const pageSize = 50;
  const page = Math.max(1, Math.floor(filter.page ?? 1));
  const decision = ['verify', 'truncate', 'discard', 'pending'].includes(filter.decision ?? '') ? filter.decision : undefined;
  const { total, rows } = fr.listFlows(db, studyId, {
    decision,
    reviewer: filter.reviewer || undefined,
    search: filter.search?.slice(0, 200) || undefined,
    limit: pageSize,
    offset: (page - 1) * pageSize,
  });
  return {
    total,
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
