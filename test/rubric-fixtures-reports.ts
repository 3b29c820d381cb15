import { getDb, inTransaction } from '@/db/client';
import * as assignmentsQ from '@/db/queries/assignments';
import * as rq from '@/db/queries/fixture-rows';
import * as studiesQ from '@/db/queries/studies';
import * as usersQ from '@/db/queries/users';
import { canonicalJson, contentHash } from '@/lib/io/canonical';
import type { Actor } from '@/lib/server/actor';
import type { RubricCatalog } from '@/lib/validation/rubric';

/*
 * A TEST FIXTURE for the rubric reports: writes a rubric study — items, reviewers' submitted (or pending)
 * assignments with their labels, rulings and judge runs — straight through db/queries, the rows the rubric importers
 * and the review screen write. Labels are given by name and turned into the catalog's codes here; an unknown name
 * throws, so a typo in a test cannot pass silently.
 */

export type RubricStudySpec = {
  name: string;
  catalog: RubricCatalog;
  reviewersPerItem: number;
  groundTruthRule?: 'adjudicated' | 'majority';
  items: { id: string; source: string | null; group?: string }[];
  /** Submitted reviews in slot order per item; `pending: true` leaves the slot's assignment pending (an undone submission). */
  annotations: { item: string; annotator: string; labels: Record<string, string>; pending?: boolean }[];
  rulings?: { item: string; dimension: string; label: string }[];
  judges?: { name: string; lines: { item: string; labels: Record<string, string>; sample?: number }[] }[];
};

function code(catalog: RubricCatalog, dimension: string, label: string): [number, number] {
  const d = catalog.findIndex((x) => x.id === dimension);
  if (d < 0) throw new Error(`fixture: no dimension "${dimension}"`);
  const l = catalog[d].labels.indexOf(label);
  if (l < 0) throw new Error(`fixture: "${label}" is not a label of ${dimension} (${catalog[d].labels.join(', ')})`);
  return [d, l];
}

export function buildRubricStudy(lead: Actor, spec: RubricStudySpec): number {
  const db = getDb();
  return inTransaction(db, () => {
    const study = studiesQ.insertStudy(db, {
      kind: 'rubric',
      name: spec.name,
      status: 'open',
      reviewersPerItem: spec.reviewersPerItem,
      groundTruthRule: spec.groundTruthRule ?? 'adjudicated',
      seed: 4242,
      principles: [],
      criteria: spec.catalog,
      adjudicatorId: lead.id,
      createdBy: lead.id,
    });
    const itemIds = new Map<string, number>();
    spec.items.forEach((it, k) => {
      const payload = {
        id: it.id,
        ...(it.group ? { group: it.group } : {}),
        history: [],
        ...(it.source ? { reply: { source: it.source, text: `Reply of ${it.source}` } } : {}),
      };
      itemIds.set(
        it.id,
        rq.insertRubricItemRow(db, {
          studyId: study.id,
          externalId: it.id,
          position: k + 1,
          payload: canonicalJson(payload),
          contentHash: contentHash(payload),
          source: it.source,
          group: it.group ?? null,
        }),
      );
    });
    const item = (id: string) => {
      const v = itemIds.get(id);
      if (v === undefined) throw new Error(`fixture: no item "${id}"`);
      return v;
    };
    const users = new Map<string, number>();
    const user = (username: string) => {
      let id = users.get(username) ?? usersQ.findUserByUsername(db, username)?.id;
      if (id === undefined) id = usersQ.insertUser(db, { username, displayName: username, passwordHash: null, role: 'annotator' }).id;
      users.set(username, id);
      return id;
    };
    const slots = new Map<number, number>();
    const queue = new Map<number, number>();
    let request = 0;
    for (const a of spec.annotations) {
      const itemId = item(a.item);
      const userId = user(a.annotator);
      const slot = (slots.get(itemId) ?? 0) + 1;
      slots.set(itemId, slot);
      const position = (queue.get(userId) ?? 0) + 1;
      queue.set(userId, position);
      const assignmentId = assignmentsQ.insertSubmittedAssignment(db, {
        studyId: study.id,
        itemId,
        userId,
        slot,
        queuePosition: position,
        submittedAt: Date.now(),
      });
      const annotation = assignmentsQ.insertAnnotation(db, {
        assignmentId,
        requestId: `fixture-${study.id}-${++request}`,
        requestHash: 'fixture',
        createdBy: userId,
      });
      for (const [dimension, label] of Object.entries(a.labels))
        rq.insertRubricLabelRow(db, annotation.id, ...code(spec.catalog, dimension, label));
      if (a.pending) assignmentsQ.markPending(db, assignmentId, Date.now());
    }
    studiesQ.addMembers(db, study.id, [...users.values()]);
    for (const r of spec.rulings ?? []) {
      const [dimension, label] = code(spec.catalog, r.dimension, r.label);
      rq.insertRubricRulingRow(db, {
        itemId: item(r.item),
        dimension,
        label,
        adjudicatorId: lead.id,
        requestId: `fixture-ruling-${study.id}-${++request}`,
      });
    }
    for (const j of spec.judges ?? []) {
      const runId = rq.insertRubricJudgeRunRow(db, { studyId: study.id, name: j.name, createdBy: lead.id });
      for (const line of j.lines) {
        for (const [dimension, label] of Object.entries(line.labels)) {
          const [d, l] = code(spec.catalog, dimension, label);
          rq.insertRubricJudgeLabelRow(db, { runId, itemId: item(line.item), dimension: d, sample: line.sample ?? 1, label: l });
        }
      }
    }
    return study.id;
  });
}
