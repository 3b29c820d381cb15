import 'server-only';
import crypto from 'node:crypto';
import { getDb, inTransaction } from '@/db/client';
import * as assignmentsQ from '@/db/queries/assignments';
import * as importsQ from '@/db/queries/imports';
import { itemIdsInOrder } from '@/db/queries/items';
import * as studiesQ from '@/db/queries/studies';
import * as usersQ from '@/db/queries/users';
import { planBalanced, planFixedSets, type PlannedAssignment } from '@/lib/assign/plan';
import { orderQueuesByGroup, planGroupsBalanced, planGroupsFixedSets, type PlanGroup } from '@/lib/assign/groups';
import { criteriaCatalogSchema } from '@/lib/validation/pairwise';
import { DEFAULT_PRINCIPLES, type StudyKind } from '@/lib/validation/labels';
import { createStudySchema, groundTruthRuleSchema, studyListSchema, studyMembersSchema } from '@/lib/validation/studies';
import { kindName } from '@/lib/kinds/names';
import { isStaff, type Actor } from '../actor';
import { studyForStaff } from '../review/access';
import { disputedItems } from '../review/disputes';
import { goldItemSet, withGold } from '../review/gold';
import { studyKind } from '@/lib/kinds/registry';
import { audit } from '../accounts/audit';
import { runningImport } from '../imports/import-staging';
import { conflict, forbidden, invalid } from '../errors';
import { parseInput } from '../parse';
import type { MyStudyDto, StudyDto, StudyListRowDto } from './dto';

function adjudicatorOf(row: studiesQ.StudyRow) {
  if (!row.adjudicatorId) return null;
  const u = usersQ.findUserById(getDb(), row.adjudicatorId);
  return u ? { userId: u.id, username: u.username, displayName: u.displayName } : null;
}

function toDto(row: studiesQ.StudyRow): StudyDto {
  const db = getDb();
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    guidelines: row.guidelines,
    status: row.status,
    payRateCents: row.payRateCents,
    reviewersPerItem: row.reviewersPerItem,
    principles: row.principles,
    // A rubric study's catalog has another shape: it is `dimensions`, never `criteria`.
    ...studyKind(row.kind).catalog.shown(row.criteria),
    assignmentMode: row.assignmentMode,
    groundTruthRule: row.groundTruthRule,
    adjudicator: adjudicatorOf(row),
    itemCount: studiesQ.countItems(db, row.id),
    members: studiesQ.listMembers(db, row.id),
    seed: row.seed,
    createdAt: row.createdAt.toISOString(),
    openedAt: row.openedAt?.toISOString() ?? null,
    deadline: row.deadlineAt?.toISOString() ?? null,
    archived: !!row.archivedAt,
    guidelinesVersion: studiesQ.latestGuidelineVersion(db, row.id),
  };
}

export function createStudy(actor: Actor, input: unknown): StudyDto {
  if (!isStaff(actor)) throw forbidden('Only leads and admins can create studies.');
  const data = parseInput(createStudySchema, input);
  const kind = studyKind(data.kind).catalog;
  const catalog = kind.initial(data.dimensions);
  const db = getDb();
  const row = inTransaction(db, () => {
    const study = studiesQ.insertStudy(db, {
      kind: data.kind,
      name: data.name,
      guidelines: data.guidelines,
      payRateCents: Math.round(data.payRate * 100),
      reviewersPerItem: data.reviewersPerItem ?? kind.defaultReviewers,
      seed: data.seed ?? crypto.randomInt(1, 2 ** 31 - 1),
      principles: [...DEFAULT_PRINCIPLES],
      // A rubric study keeps its own copy of its catalog, fixed from now on (docs/decisions/0010-rubric-labels.md).
      criteria: catalog.stored,
      groundTruthRule: data.groundTruthRule ?? 'adjudicated',
      createdBy: actor.id,
    });
    studiesQ.insertGuidelineVersion(db, study.id, study.guidelines, actor.id);
    audit(db, {
      userId: actor.id,
      action: 'study_created',
      studyId: study.id,
      detail: { name: study.name, ...catalog.audit },
    });
    return study;
  });
  return toDto(row);
}

export function getStudy(actor: Actor, studyId: number): StudyDto {
  return toDto(studyForStaff(getDb(), actor, studyId));
}

export function listAllStudies(actor: Actor): StudyDto[] {
  if (!isStaff(actor)) throw forbidden();
  return studiesQ.listStudies(getDb()).map(toDto);
}

/**
 * The studies list: each study with its kind, status and progress (reviews submitted of those assigned), searched by
 * name or id, filtered by kind and status, sorted. Archived studies are left out unless the status asked is
 * "archived"; then only they are listed.
 */
export function listStudiesView(actor: Actor, input: unknown): StudyListRowDto[] {
  if (!isStaff(actor)) throw forbidden();
  const { q, kind, status, sort } = parseInput(studyListSchema, input);
  const db = getDb();
  const progress = new Map(studiesQ.studyProgress(db).map((p) => [p.id, p]));
  const needle = q.toLowerCase();
  const rows: StudyListRowDto[] = studiesQ
    .listStudies(db)
    .filter((s) => (status === 'archived' ? !!s.archivedAt : !s.archivedAt && (!status || s.status === status)))
    // A kind compared, not a branch (test/architecture.test.ts (i)): the list filtered by the kind the lead picked.
    .filter((s) => !kind || s.kind === kind)
    .filter((s) => !needle || s.name.toLowerCase().includes(needle) || String(s.id) === needle)
    .map((s) => {
      const p = progress.get(s.id) ?? { items: 0, assigned: 0, submitted: 0 };
      return {
        id: s.id,
        kind: s.kind,
        name: s.name,
        status: s.status,
        archived: !!s.archivedAt,
        items: p.items,
        assigned: p.assigned,
        submitted: p.submitted,
        reviewers: studiesQ.listMembers(db, s.id).map((m) => m.username),
        deadline: s.deadlineAt?.toISOString() ?? null,
        createdAt: s.createdAt.toISOString(),
      };
    });
  const share = (r: StudyListRowDto) => (r.assigned ? r.submitted / r.assigned : -1);
  const STATUS_ORDER = { open: 0, draft: 1, closed: 2 } as const;
  const order: Record<typeof sort, (a: StudyListRowDto, b: StudyListRowDto) => number> = {
    newest: (a, b) => b.id - a.id,
    oldest: (a, b) => a.id - b.id,
    name: (a, b) => a.name.localeCompare(b.name, 'en') || a.id - b.id,
    progress: (a, b) => share(b) - share(a) || b.id - a.id,
    status: (a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || b.id - a.id,
  };
  return rows.sort(order[sort]);
}

export function listMyStudies(actor: Actor): MyStudyDto[] {
  const db = getDb();
  return studiesQ.listStudiesForUser(db, actor.id).map((r) => {
    const row = studiesQ.findStudy(db, r.id)!;
    let disagreementsWaiting: number | null = null;
    if (r.isAdjudicator === 1 && studyKind(row.kind).adjudication) {
      disagreementsWaiting = disputedItems(db, row).filter((i) => i.resolved < i.disagreements).length;
    }
    return {
      ...r,
      isAdjudicator: r.isAdjudicator === 1,
      disagreementsWaiting,
      deadline: row.deadlineAt?.toISOString() ?? null,
      guidelinesVersion: studiesQ.latestGuidelineVersion(db, r.id),
      guidelinesUpdated: studiesQ.workedBeforeLatestGuidelines(db, r.id, actor.id),
    };
  });
}

/** Resolves a study reference given on the command line or in a URL: its numeric id. */
export function parseStudyId(value: string | number): number {
  const id = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(id) || id < 1) throw invalid(`"${value}" is not a study id (a positive whole number).`);
  return id;
}

export function setStudyMembers(actor: Actor, studyId: number, input: unknown): StudyDto {
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  const { usernames, mode, adjudicator } = parseInput(studyMembersSchema, input);
  if (study.status !== 'draft') throw conflict('People can only be chosen while the study is a draft.');
  const resolve = (names: string[]) => {
    const unknown = names.filter((n) => {
      const u = usersQ.findUserByUsername(db, n);
      return !u || !u.active || !u.passwordHash;
    });
    if (unknown.length)
      throw invalid(`No active account named ${unknown.map((u) => `"${u}"`).join(', ')}.`, { usernames: 'Unknown account' });
    return names.map((n) => usersQ.findUserByUsername(db, n)!.id);
  };
  const names = [...new Set(usernames)];
  const ids = resolve(names);
  if (mode === 'fixed_sets' && names.length % study.reviewersPerItem !== 0) {
    throw invalid(`Fixed sets need groups of ${study.reviewersPerItem}: choose a multiple of ${study.reviewersPerItem} reviewers.`, {
      usernames: 'Uneven groups',
    });
  }
  const adjudicatorId = adjudicator ? resolve([adjudicator])[0] : null;
  if (adjudicatorId !== null && ids.includes(adjudicatorId)) {
    throw invalid('The adjudicator must be someone other than the reviewers.', { adjudicator: 'Also a reviewer' });
  }
  inTransaction(db, () => {
    studiesQ.replaceMembers(
      db,
      studyId,
      ids.map((userId, i) => ({ userId, setIndex: mode === 'fixed_sets' ? Math.floor(i / study.reviewersPerItem) + 1 : null })),
    );
    studiesQ.updateStudy(db, studyId, { assignmentMode: mode, adjudicatorId });
    audit(db, { userId: actor.id, action: 'study_members_set', studyId, detail: { usernames: names, mode, adjudicator } });
  });
  return toDto(studiesQ.findStudy(db, studyId)!);
}

/** Replaces a draft pairwise study's criteria catalog (a JSON array; `overall` is always added). */
export function setStudyCriteria(actor: Actor, studyId: number, catalog: unknown): StudyDto {
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  const editable = studyKind(study.kind).catalog.editable;
  if (!editable.ok) throw invalid(editable.refusal);
  if (study.status !== 'draft') throw conflict('Criteria can only change while the study is a draft.');
  // An empty catalog is allowed: every item is then judged on `overall` alone.
  const criteria = parseInput(criteriaCatalogSchema, catalog, 'criteria');
  inTransaction(db, () => {
    studiesQ.updateStudy(db, studyId, { criteria });
    audit(db, { userId: actor.id, action: 'study_criteria_set', studyId, detail: { criteria: criteria.map((c) => c.id) } });
  });
  return toDto(studiesQ.findStudy(db, studyId)!);
}

/**
 * Opens a draft study: makes every assignment at once, deterministically from the study's seed, in one
 * immediate transaction. Afterwards items are frozen and people can start. With `leaveUnassigned` and no
 * reviewers chosen, items without reviewers stay unassigned (for a hybrid review queue later).
 */
export function openStudy(actor: Actor, studyId: number, opts: { leaveUnassigned?: boolean } = {}): StudyDto {
  const db = getDb();
  inTransaction(db, () => {
    const study = studyForStaff(db, actor, studyId);
    if (study.status !== 'draft') throw conflict(`The study is already ${study.status}.`);
    if (runningImport(db, studyId)) throw conflict('An import into this study is still running; open the study once it has finished.');
    const itemIds = itemIdsInOrder(db, studyId);
    if (!itemIds.length) throw invalid('Import items before opening the study.');
    const members = studiesQ.listMembers(db, studyId);
    const made = PLANS[study.kind](db, study, members, opts, itemIds);
    studiesQ.updateStudy(db, studyId, { status: 'open', openedAt: new Date() });
    audit(db, { userId: actor.id, action: 'study_opened', studyId, detail: { assignments: made } });
  });
  return toDto(studiesQ.findStudy(db, studyId)!);
}

/**
 * The assignments of a rubric study, made inside `openStudy`'s transaction. Groups (a dialogue's replies) go to
 * their reviewers whole, and each reviewer's queue holds a group's replies one after another, groups and replies
 * each in a random order of the reviewer's own (from the study's seed and the reviewer), stored in
 * `queue_position`. Items that already have reviewers (imported prior annotations, e.g. MRBench's gold labels) get
 * only their missing slots, from people other than those. Returns how many assignments were made.
 */
function planRubricStudy(
  db: ReturnType<typeof getDb>,
  study: studiesQ.StudyRow,
  members: { userId: number; setIndex: number | null }[],
  opts: { leaveUnassigned?: boolean },
): number {
  const items = importsQ.itemGroupsInOrder(db, study.id);
  const taken = new Map<number, number[]>();
  for (const r of importsQ.reviewersOfItems(db, study.id)) taken.set(r.itemId, [...(taken.get(r.itemId) ?? []), r.userId]);
  const groupKey = new Map(items.map((i) => [i.id, i.groupKey]));
  const groups = new Map<string, PlanGroup & { items: { id: number; taken: number[] }[] }>();
  const gold = goldItemSet(db, study.id);
  for (const item of items) {
    const has = taken.get(item.id) ?? [];
    if (has.length >= study.reviewersPerItem || gold.has(item.id)) continue;
    const key = item.groupKey === null ? `\u0000${item.id}` : `g${item.groupKey}`;
    const group = groups.get(key);
    if (group) group.items.push({ id: item.id, taken: has });
    else groups.set(key, { items: [{ id: item.id, taken: has }] });
  }
  if (!groups.size || (opts.leaveUnassigned && members.length === 0)) return 0;
  const need = Math.max(...[...groups.values()].flatMap((g) => g.items.map((i) => study.reviewersPerItem - i.taken.length)));
  if (members.length < need) {
    throw invalid(
      `Some items need ${need} more reviewer(s), but ${members.length} ${members.length === 1 ? 'person is' : 'people are'} chosen.`,
    );
  }
  let plan: PlannedAssignment[];
  try {
    if (study.assignmentMode === 'fixed_sets') {
      const sets = new Map<number, number[]>();
      for (const m of members) sets.set(m.setIndex ?? 1, [...(sets.get(m.setIndex ?? 1) ?? []), m.userId]);
      plan = planGroupsFixedSets(
        [...groups.values()],
        [...sets.entries()].sort((a, b) => a[0] - b[0]).map(([, g]) => g),
        study.reviewersPerItem,
        study.seed,
      );
    } else {
      plan = planGroupsBalanced(
        [...groups.values()],
        members.map((m) => m.userId),
        study.reviewersPerItem,
        study.seed,
      );
    }
  } catch (e) {
    // A prior reviewer who is also chosen cannot take an item twice; say which and why rather than fail obscurely.
    throw invalid(`The chosen reviewers cannot cover every item: ${(e as Error).message}.`);
  }
  const ordered = withGold(
    db,
    study,
    orderQueuesByGroup(
      plan,
      (id) => groupKey.get(id) ?? null,
      study.seed,
      (userId) => assignmentsQ.lastQueuePosition(db, study.id, userId),
    ),
    (id) => groupKey.get(id) ?? null,
  );
  for (const p of ordered) assignmentsQ.insertAssignment(db, { ...p, studyId: study.id });
  return ordered.length;
}

export function closeStudy(actor: Actor, studyId: number): StudyDto {
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  if (study.status !== 'open') throw conflict('Only an open study can be closed.');
  inTransaction(db, () => {
    studiesQ.updateStudy(db, studyId, { status: 'closed', closedAt: new Date() });
    audit(db, { userId: actor.id, action: 'study_closed', studyId });
  });
  return toDto(studiesQ.findStudy(db, studyId)!);
}

/**
 * How a study forms ground truth where reviewers disagree: per item (adjudicated, majority) or by a label model fitted
 * on the whole study (dawid_skene, mace; decision 0028). Any kind whose items are adjudicated has one; it can change
 * at any time (the ground truth is derived, never stored).
 */
export function setGroundTruthRule(actor: Actor, studyId: number, input: unknown): StudyDto {
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  if (!studyKind(study.kind).adjudication) throw invalid(`A ${kindName(study.kind).toLowerCase()} study has no ground-truth rule.`);
  const parsed = groundTruthRuleSchema.safeParse(input);
  if (!parsed.success) throw invalid(parsed.error.issues[0].message, { groundTruthRule: 'Unknown rule' });
  const rule = parsed.data;
  inTransaction(db, () => {
    studiesQ.updateStudy(db, studyId, { groundTruthRule: rule });
    audit(db, { userId: actor.id, action: 'ground_truth_rule_set', studyId, detail: { from: study.groundTruthRule, to: rule } });
  });
  return toDto(studiesQ.findStudy(db, studyId)!);
}

/**
 * The assignments of a flow review or pairwise study, item by item, made inside `openStudy`'s transaction; gold items
 * are mixed into the queues (`withGold`). Returns how many assignments were made.
 */
function planByItem(
  db: ReturnType<typeof getDb>,
  study: studiesQ.StudyRow,
  members: { userId: number; setIndex: number | null }[],
  opts: { leaveUnassigned?: boolean },
  itemIds: number[],
): number {
  const studyId = study.id;
  // Items may already have reviewers from imported prior annotations; only the missing slots are planned.
  const taken = new Map<number, number>();
  for (const r of assignmentsQ.assignmentCountsByItem(db, studyId)) taken.set(r.itemId, r.n);
  // Gold items are not planned as work: they are mixed into every queue at the study's gold rate (decision 0030).
  const gold = goldItemSet(db, studyId);
  const open = itemIds.filter((id) => (taken.get(id) ?? 0) < study.reviewersPerItem && !gold.has(id));
  if (open.some((id) => taken.has(id))) {
    throw invalid('Some items have fewer imported reviewers than planned; import the rest or lower the reviewers per item.');
  }
  let plan: PlannedAssignment[] = [];
  // Items judged only by an LLM can wait for a hybrid review queue instead of going to people now.
  if (open.length && !(opts.leaveUnassigned && members.length === 0)) {
    if (members.length < study.reviewersPerItem) {
      throw invalid(
        `Each item needs ${study.reviewersPerItem} reviewer(s), but ${members.length} ${members.length === 1 ? 'person is' : 'people are'} chosen.`,
      );
    }
    if (study.assignmentMode === 'fixed_sets') {
      const groups = new Map<number, number[]>();
      for (const m of members) groups.set(m.setIndex ?? 1, [...(groups.get(m.setIndex ?? 1) ?? []), m.userId]);
      plan = planFixedSets(
        open,
        [...groups.entries()].sort((a, b) => a[0] - b[0]).map(([, g]) => g),
        study.seed,
      );
    } else {
      plan = planBalanced(
        open,
        members.map((m) => m.userId),
        study.reviewersPerItem,
        study.seed,
      );
    }
  }
  plan = withGold(db, study, plan);
  for (const p of plan) assignmentsQ.insertAssignment(db, { ...p, studyId });
  return plan.length;
}

/** How each kind plans its assignments when it opens: a rubric study by dialogue groups (lib/assign/groups). */
const PLANS: Record<StudyKind, typeof planByItem> = {
  flow_review: planByItem,
  pairwise: planByItem,
  rubric: (db, study, members, opts) => planRubricStudy(db, study, members, opts),
};
