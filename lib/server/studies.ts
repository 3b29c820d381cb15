import 'server-only';
import crypto from 'node:crypto';
import { getDb, inTransaction } from '@/db/client';
import * as studiesQ from '@/db/queries/studies';
import * as usersQ from '@/db/queries/users';
import { planBalanced } from '@/lib/assign/plan';
import { DEFAULT_PRINCIPLES } from '@/lib/validation/labels';
import { createStudySchema, studyMembersSchema } from '@/lib/validation/studies';
import { isStaff, type Actor } from './actor';
import { studyForStaff } from './access';
import { audit } from './audit';
import { conflict, forbidden, invalid } from './errors';
import { parseInput } from './parse';

export type StudyDto = {
  id: number;
  kind: 'flow_review' | 'pairwise' | 'rubric';
  name: string;
  guidelines: string;
  status: 'draft' | 'open' | 'closed';
  payRateCents: number;
  reviewersPerItem: number;
  principles: string[];
  itemCount: number;
  members: { userId: number; username: string; displayName: string }[];
  seed: number;
  createdAt: string;
  openedAt: string | null;
};

export type MyStudyDto = {
  id: number;
  kind: StudyDto['kind'];
  name: string;
  status: StudyDto['status'];
  assigned: number;
  submitted: number;
  isAdjudicator: boolean;
};

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
    itemCount: studiesQ.countItems(db, row.id),
    members: studiesQ.listMembers(db, row.id).map(({ userId, username, displayName }) => ({ userId, username, displayName })),
    seed: row.seed,
    createdAt: row.createdAt.toISOString(),
    openedAt: row.openedAt?.toISOString() ?? null,
  };
}

export function createStudy(actor: Actor, input: unknown): StudyDto {
  if (!isStaff(actor)) throw forbidden('Only leads and admins can create studies.');
  const data = parseInput(createStudySchema, input);
  const db = getDb();
  const row = inTransaction(db, () => {
    const study = studiesQ.insertStudy(db, {
      kind: data.kind,
      name: data.name,
      guidelines: data.guidelines,
      payRateCents: Math.round(data.payRate * 100),
      reviewersPerItem: data.reviewersPerItem ?? (data.kind === 'pairwise' ? 2 : 1),
      seed: data.seed ?? crypto.randomInt(1, 2 ** 31 - 1),
      principles: [...DEFAULT_PRINCIPLES],
      createdBy: actor.id,
    });
    audit(db, { userId: actor.id, action: 'study_created', studyId: study.id, detail: { name: study.name } });
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

export function listMyStudies(actor: Actor): MyStudyDto[] {
  return studiesQ.listStudiesForUser(getDb(), actor.id).map((r) => ({ ...r, isAdjudicator: r.isAdjudicator === 1 }));
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
  const { usernames } = parseInput(studyMembersSchema, input);
  if (study.status !== 'draft') throw conflict('People can only be chosen while the study is a draft.');
  const ids: number[] = [];
  const unknown: string[] = [];
  for (const name of new Set(usernames)) {
    const user = usersQ.findUserByUsername(db, name);
    if (!user || !user.active || !user.passwordHash) unknown.push(name);
    else ids.push(user.id);
  }
  if (unknown.length) throw invalid(`No active account named ${unknown.map((u) => `"${u}"`).join(', ')}.`, { usernames: 'Unknown account' });
  inTransaction(db, () => {
    studiesQ.replaceMembers(db, studyId, ids);
    audit(db, { userId: actor.id, action: 'study_members_set', studyId, detail: { usernames } });
  });
  return toDto(studiesQ.findStudy(db, studyId)!);
}

/**
 * Opens a draft study: makes every assignment at once, deterministically from the study's seed, in one
 * immediate transaction. Afterwards items are frozen and people can start.
 */
export function openStudy(actor: Actor, studyId: number): StudyDto {
  const db = getDb();
  inTransaction(db, () => {
    const study = studyForStaff(db, actor, studyId);
    if (study.status !== 'draft') throw conflict(`The study is already ${study.status}.`);
    const itemIds = (
      db.$client.prepare('SELECT id FROM items WHERE study_id = ? ORDER BY position').pluck().all(studyId) as number[]
    );
    if (!itemIds.length) throw invalid('Import items before opening the study.');
    const members = studiesQ.listMembers(db, studyId).map((m) => m.userId);
    if (members.length < study.reviewersPerItem) {
      throw invalid(
        `Each item needs ${study.reviewersPerItem} reviewer(s), but ${members.length} ${members.length === 1 ? 'person is' : 'people are'} chosen.`,
      );
    }
    const plan = planBalanced(itemIds, members, study.reviewersPerItem, study.seed);
    const insert = db.$client.prepare(
      'INSERT INTO assignments (study_id, item_id, user_id, slot, queue_position, swapped) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for (const p of plan) insert.run(studyId, p.itemId, p.userId, p.slot, p.queuePosition, p.swapped ? 1 : 0);
    studiesQ.updateStudy(db, studyId, { status: 'open', openedAt: new Date() });
    audit(db, { userId: actor.id, action: 'study_opened', studyId, detail: { assignments: plan.length } });
  });
  return toDto(studiesQ.findStudy(db, studyId)!);
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
