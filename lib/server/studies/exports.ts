import 'server-only';
import { getDb, openSnapshot, type Db } from '@/db/client';
import * as fr from '@/db/queries/flow-review';
import { csvHeader, csvLine } from '@/lib/io/csv';
import { jsonlLine } from '@/lib/io/jsonl-out';
import type { FlowItem } from '@/lib/validation/flow';
import type { Actor } from '../actor';
import { staffStudyOfKind } from '../review/access';
import { audit } from '../accounts/audit';
import { invalid } from '../errors';

export const FLOW_EXPORTS = ['flows', 'decisions'] as const;
export const EXPORT_FORMATS = ['jsonl', 'csv'] as const;

type Decision = fr.DecisionRow & { externalId: string; itemPayload: string; username: string; pending: number };

/**
 * The decision an item ends with when its reviewers' decisions are combined: discarded if any reviewer
 * discarded it, otherwise truncated at the earliest truncation, otherwise verified.
 */
export function combineDecisions(rows: Decision[]) {
  const discards = rows.filter((r) => r.decision === 'discard');
  if (discards.length) return { decision: 'discard' as const };
  const cuts = rows.filter((r) => r.decision === 'truncate').map((r) => r.afterStep!);
  if (cuts.length) return { decision: 'truncate' as const, afterStep: Math.min(...cuts) };
  return { decision: 'verify' as const };
}

/** Groups the decision stream (ordered by item) into one array per item without holding the whole study. */
function* byItem(rows: Iterable<Decision>): Generator<Decision[]> {
  let group: Decision[] = [];
  for (const row of rows) {
    if (group.length && group[0].itemId !== row.itemId) {
      yield group;
      group = [];
    }
    group.push(row);
  }
  if (group.length) yield group;
}

/**
 * The verified flows: every flow not discarded, truncation applied. A flow counts only once every planned reviewer
 * has submitted (one reviewer's "verify" says nothing about the other's "discard" to come), as for ground truth;
 * with `includeIncomplete` flows with some reviews in are exported too, marked `complete: false`.
 */
function* verifiedFlows(db: Db, studyId: number, format: 'jsonl' | 'csv', includeIncomplete: boolean) {
  if (format === 'csv') yield csvHeader(['id', 'decision', 'after_step', 'kept_steps', 'reviewers', 'notes', 'problem', 'complete']);
  for (const group of byItem(fr.iterateDecisions(db, studyId))) {
    const complete = group[0].pending === 0;
    if (!complete && !includeIncomplete) continue;
    const final = combineDecisions(group);
    if (final.decision === 'discard') continue;
    const flow = JSON.parse(group[0].itemPayload) as FlowItem;
    const steps = final.decision === 'truncate' ? flow.steps.slice(0, final.afterStep) : flow.steps;
    const reviewers = group.map((r) => r.username);
    const notes = group.map((r) => r.note).filter((n): n is string => !!n);
    if (format === 'csv') {
      yield csvLine([
        flow.id,
        final.decision,
        final.decision === 'truncate' ? final.afterStep : '',
        steps.length,
        reviewers.join(';'),
        notes.join(' | '),
        flow.problem.text,
        complete,
      ]);
    } else {
      yield jsonlLine({ ...flow, steps, review: { ...final, reviewers, notes, complete } });
    }
  }
}

function* decisionRows(db: Db, studyId: number, format: 'jsonl' | 'csv') {
  const columns = ['item', 'reviewer', 'decision', 'after_step', 'reasons', 'note', 'active_seconds', 'submitted_at'];
  if (format === 'csv') yield csvHeader(columns);
  for (const r of fr.iterateDecisions(db, studyId)) {
    const reasons = r.reasons ? (JSON.parse(r.reasons) as string[]) : [];
    const row = {
      item: r.externalId,
      reviewer: r.username,
      decision: r.decision,
      after_step: r.afterStep,
      reasons,
      note: r.note,
      active_seconds: Math.round(r.activeMs / 1000),
      submitted_at: new Date(r.submittedAt).toISOString(),
    };
    yield format === 'csv'
      ? csvLine([
          row.item,
          row.reviewer,
          row.decision,
          row.after_step ?? '',
          reasons.join(';'),
          row.note ?? '',
          row.active_seconds,
          row.submitted_at,
        ])
      : jsonlLine(row);
  }
}

/** Runs a line generator on its own snapshot connection, closed when the generator ends or is abandoned. */
function* readingSnapshot(make: (db: Db) => Generator<string>): Generator<string> {
  const snap = openSnapshot();
  try {
    yield* make(snap.db);
  } finally {
    snap.close();
  }
}

/**
 * A study export as a lazy sequence of lines. Rows are read from SQLite one at a time as the caller pulls,
 * so memory does not grow with the study. `incomplete` counts the flows not reviewed by every planned reviewer
 * yet: left out of the verified flows unless `includeIncomplete` (the decisions export lists every decision).
 */
export function exportFlows(actor: Actor, studyId: number, what: string, format: string, { includeIncomplete = false } = {}) {
  const db = getDb();
  const study = staffStudyOfKind(db, actor, studyId, 'flow_review', 'The flows export');
  if (!FLOW_EXPORTS.includes(what as never)) throw invalid(`Unknown export "${what}"; use flows or decisions.`);
  if (!EXPORT_FORMATS.includes(format as never)) throw invalid(`Unknown format "${format}"; use jsonl or csv.`);
  audit(db, { userId: actor.id, action: 'export', studyId, detail: { what, format, ...(includeIncomplete ? { includeIncomplete } : {}) } });
  const incomplete = fr.countIncompleteItems(db, studyId);
  const lines = readingSnapshot((snap) =>
    what === 'flows' ? verifiedFlows(snap, studyId, format as 'jsonl', includeIncomplete) : decisionRows(snap, studyId, format as 'jsonl'),
  );
  const safeName = study.name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60) || 'study';
  return {
    lines,
    summary: { incomplete, includeIncomplete },
    filename: `${safeName}-${what}.${format}`,
    contentType: format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
  };
}
