import 'server-only';
import { getDb } from '@/db/client';
import * as fr from '@/db/queries/flow-review';
import * as pq from '@/db/queries/pairwise';
import * as studiesQ from '@/db/queries/studies';
import * as usersQ from '@/db/queries/users';
import { OVERALL } from '@/lib/validation/common';
import type { Criterion } from '@/lib/validation/pairwise';
import type { Actor } from '../actor';
import { studyForStaff } from '../review/access';
import { disputedItems } from '../review/disputes';
import { summarize } from '../ground-truth/ground-truth';
import type { PairwiseReportDto } from './dto';

export function pairwiseReport(actor: Actor, studyId: number): PairwiseReportDto {
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  const members = studiesQ.listMembers(db, studyId);
  const setOf = new Map(members.map((m) => [m.username, m.setIndex]));
  const reviewers = fr.reviewerStats(db, studyId).map((r) => ({
    username: r.username,
    displayName: r.displayName,
    set: setOf.get(r.username) ?? null,
    assigned: r.assigned,
    submitted: r.submitted,
    activeSeconds: Math.round(r.activeMs / 1000),
    payout: (r.submitted * study.payRateCents) / 100,
  }));
  const disagreements = disputedItems(db, study);
  const settled = disagreements.filter((d) => d.resolved >= d.disagreements).length;
  const names = new Map(((study.criteria ?? []) as Criterion[]).map((c, i) => [c.id, { name: c.name, i }]));
  names.set(OVERALL, { name: 'Overall', i: names.size });
  const adjudicator = study.adjudicatorId ? (usersQ.findUserById(db, study.adjudicatorId)?.username ?? null) : null;
  return {
    studyId,
    items: studiesQ.countItems(db, studyId),
    assigned: reviewers.reduce((s, r) => s + r.assigned, 0),
    submitted: reviewers.reduce((s, r) => s + r.submitted, 0),
    reviewers,
    sets: pq.setProgress(db, studyId).map((s) => ({
      set: s.setIndex,
      reviewers: members.filter((m) => m.setIndex === s.setIndex).map((m) => m.username),
      items: s.items,
      complete: s.complete,
    })),
    adjudication: { adjudicator, disagreeingItems: disagreements.length, settled, open: disagreements.length - settled },
    agreement: pq
      .rawAgreement(db, studyId)
      .map((r) => ({
        criterion: r.criterion,
        name: names.get(r.criterion)?.name ?? r.criterion,
        items: r.items,
        agreed: r.agreed,
        percentAgreement: r.items ? r.pairShareSum / r.items : null,
        unanimous: r.items ? r.agreed / r.items : null,
      }))
      .sort((a, b) => (names.get(a.criterion)?.i ?? 1e9) - (names.get(b.criterion)?.i ?? 1e9)),
    groundTruth: summarize(db, study),
  };
}
