import 'server-only';
import { getDb, inTransaction, type Db } from '@/db/client';
import * as goldQ from '@/db/queries/gold';
import type { StudyRow } from '@/db/queries/studies';
import { mixGold, type GoldTaken } from '@/lib/assign/gold';
import type { PlannedAssignment } from '@/lib/assign/plan';
import type { GoldUnit } from '@/lib/kinds/facets/gold';
import { studyKind } from '@/lib/kinds/registry';
import { wilsonInterval } from '@/lib/stats/intervals';
import { goldSettingsSchema, setGoldByItemIdSchema, setGoldSchema } from '@/lib/validation/gold';
import { itemIdByExternalId } from '@/db/queries/items';
import type { Actor } from '../actor';
import { audit } from '../accounts/audit';
import { conflict, invalid, notFound } from '../errors';
import { parseInput } from '../parse';
import { studyForStaff } from './access';
import { mixMarkedGold } from './gold-late';
import type { GoldAccuracyDto, GoldItemDto, GoldListItemDto, GoldSettingsDto } from './dto';

/*
 * Gold items (docs/decisions/0030): items whose answers the lead knows. They are mixed into every reviewer's queue
 * when the study opens (`withGold`), served exactly as any other item, and scored here against the known answer;
 * they are checks, never data, so disputes (and ground truth, through `gold_current`) leave them out.
 */

/**
 * Checks gold labels against the study's kind (unit → label name; null unmarks a unit): one message per unit, under
 * `field.unit`, naming what the unit accepts. The one check for the import and the item page.
 */
export function checkGoldLabels(study: StudyRow, labels: Record<string, string | null>, field = 'labels') {
  const units = new Map(
    studyKind(study.kind)
      .gold.units(study)
      .map((u) => [u.id, u]),
  );
  const fieldErrors: Record<string, string> = {};
  const out: { unit: string; label: string | null }[] = [];
  for (const [unit, label] of Object.entries(labels)) {
    const known = units.get(unit);
    if (!known) fieldErrors[`${field}.${unit}`] = `"${unit}" is not one of this study's units (${[...units.keys()].join(', ')}).`;
    else if (label !== null && !known.labels.includes(label))
      fieldErrors[`${field}.${unit}`] = `"${label}" is not a label of ${unit} (${known.labels.join(', ')}).`;
    else out.push({ unit, label });
  }
  const messages = Object.entries(fieldErrors);
  if (messages.length) throw invalid(messages.map(([k, v]) => `${k}: ${v}`).join(' '), fieldErrors);
  return out;
}

/**
 * Writes the gold labels that change (append-only), inside the caller's transaction; returns how many rows it wrote
 * and, when the item became gold in an open study, the reviewers whose pending queues it went into (decision 0041) —
 * whether a lead marked it or an import of the study's own file brought its gold labels.
 */
export function writeGoldLabels(
  db: Db,
  study: StudyRow,
  itemId: number,
  labels: { unit: string; label: string | null }[],
  source: 'import' | 'lead',
  userId: number | null,
): { written: number; mixedInto: number[] } {
  const before = goldQ.goldOfItem(db, itemId);
  const current = new Map(before.map((g) => [g.unit, g.label]));
  let written = 0;
  for (const { unit, label } of labels) {
    if ((current.get(unit) ?? null) === label) continue;
    goldQ.insertGoldLabel(db, { studyId: study.id, itemId, unit, label, source, createdBy: userId });
    written++;
  }
  const becameGold = written > 0 && before.length === 0 && goldQ.goldOfItem(db, itemId).length > 0;
  return { written, mixedInto: becameGold ? mixMarkedGold(db, study, itemId) : [] };
}

function itemOfStudy(db: Db, studyId: number, itemId: number) {
  if (goldQ.studyOfItem(db, itemId) !== studyId) throw notFound('That item');
}

/** The units a gold label may name for the study and the item's current gold labels, for the item page. */
export function getItemGold(actor: Actor, studyId: number, itemId: number): GoldItemDto {
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  itemOfStudy(db, studyId, itemId);
  return goldItemDto(db, study, itemId);
}

function goldItemDto(db: Db, study: StudyRow, itemId: number): GoldItemDto {
  const units: GoldUnit[] = studyKind(study.kind).gold.units(study);
  return {
    itemId,
    units: units.map((u) => ({ id: u.id, labels: [...u.labels] })),
    labels: Object.fromEntries(goldQ.goldOfItem(db, itemId).map((g) => [g.unit, g.label])),
  };
}

/** The study's gold items with their answers, in item order, for the lead's items page. */
export function listGoldItems(actor: Actor, studyId: number): GoldListItemDto[] {
  const db = getDb();
  studyForStaff(db, actor, studyId);
  const out = new Map<number, GoldListItemDto>();
  for (const g of goldQ.currentGoldWithIds(db, studyId)) {
    const item = out.get(g.itemId) ?? { itemId: g.itemId, externalId: g.externalId, labels: {} };
    item.labels[g.unit] = g.label;
    out.set(g.itemId, item);
  }
  return [...out.values()];
}

/**
 * A lead sets or clears the gold labels of one item (audited; every change is kept, decision 0030). In an open
 * study an item that becomes gold is mixed into the reviewers' pending queues at the study's rate (decision 0041).
 */
export function setItemGold(actor: Actor, studyId: number, input: unknown): GoldItemDto {
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  const { itemId, labels } = parseInput(setGoldSchema, input);
  itemOfStudy(db, studyId, itemId);
  const checked = checkGoldLabels(study, labels);
  inTransaction(db, () => {
    const { written, mixedInto } = writeGoldLabels(db, study, itemId, checked, 'lead', actor.id);
    if (written)
      audit(db, {
        userId: actor.id,
        action: 'gold_set',
        studyId,
        objectId: itemId,
        detail: mixedInto.length ? { labels, mixedInto } : { labels },
      });
  });
  return goldItemDto(db, study, itemId);
}

/** As `setItemGold`, the item named by its id in the imported file (the command line and the HTTP API). */
export function setGoldOfItemNamed(actor: Actor, studyId: number, input: unknown): GoldItemDto {
  const { item, labels } = parseInput(setGoldByItemIdSchema, input);
  studyForStaff(getDb(), actor, studyId);
  const itemId = itemIdByExternalId(getDb(), studyId, item);
  if (itemId === undefined) throw notFound(`An item "${item}" of this study`);
  return setItemGold(actor, studyId, { itemId, labels });
}

export function getGoldSettings(actor: Actor, studyId: number): GoldSettingsDto {
  const db = getDb();
  studyForStaff(db, actor, studyId);
  return goldQ.goldSettings(db, studyId);
}

/**
 * Sets the gold rate and the accuracy threshold. The rate shapes the queues made when the study opens, so it can
 * change only while the study is a draft; the threshold may change at any time (it only decides the notice).
 */
export function setGoldSettings(actor: Actor, studyId: number, input: unknown): GoldSettingsDto {
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  const next = parseInput(goldSettingsSchema, input);
  const now = goldQ.goldSettings(db, studyId);
  if (next.ratePct !== now.ratePct && study.status !== 'draft') {
    throw conflict('The gold rate mixes gold items into the queues made when the study opens; it cannot change afterwards.');
  }
  inTransaction(db, () => {
    goldQ.putGoldSettings(db, studyId, next, actor.id, Date.now());
    audit(db, { userId: actor.id, action: 'gold_settings_set', studyId, detail: next });
  });
  return next;
}

/** The study's gold items, for `openStudy` to keep out of the regular plan. */
export const goldItemSet = (db: Db, studyId: number) => new Set(goldQ.goldItemIds(db, studyId));

/**
 * The opening plan with the study's gold items mixed into every reviewer's queue at the study's gold rate (inside
 * `openStudy`'s transaction). `groupOf` keeps a rubric reviewer's groups whole.
 */
export function withGold(
  db: Db,
  study: StudyRow,
  plan: readonly PlannedAssignment[],
  groupOf?: (itemId: number) => string | null,
): PlannedAssignment[] {
  const { ratePct } = goldQ.goldSettings(db, study.id);
  const gold = goldQ.goldItemIds(db, study.id);
  const taken = new Map<number, { users: Set<number>; maxSlot: number }>();
  for (const h of goldQ.holdersOfGold(db, study.id)) {
    const t = taken.get(h.itemId) ?? { users: new Set<number>(), maxSlot: 0 };
    t.users.add(h.userId);
    t.maxSlot = Math.max(t.maxSlot, h.slot);
    taken.set(h.itemId, t);
  }
  return mixGold(plan, gold, ratePct, study.seed, groupOf, taken as GoldTaken);
}

/**
 * Each reviewer's accuracy on gold: one comparison per gold unit they answered (a pairwise criterion, a rubric
 * dimension, a flow decision), with a 95 % Wilson interval; `below` when the lead set a threshold and the accuracy
 * is under it. Exported for the annotator quality report, which shows the same figures.
 */
export function goldAccuracy(actor: Actor, studyId: number): GoldAccuracyDto {
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  return goldAccuracyOf(db, study);
}

export function goldAccuracyOf(db: Db, study: StudyRow): GoldAccuracyDto {
  const settings = goldQ.goldSettings(db, study.id);
  const gold = new Map<string, string>();
  const goldItems = new Set<number>();
  for (const g of goldQ.currentGold(db, study.id)) {
    gold.set(`${g.itemId}\u0000${g.unit}`, g.label);
    goldItems.add(g.itemId);
  }
  const tally = new Map<number, { items: Set<number>; compared: number; correct: number }>();
  for (const a of studyKind(study.kind).gold.answers(db, study)) {
    const known = gold.get(`${a.itemId}\u0000${a.unit}`);
    if (known === undefined) continue;
    const t = tally.get(a.userId) ?? { items: new Set<number>(), compared: 0, correct: 0 };
    t.items.add(a.itemId);
    t.compared++;
    if (a.label === known) t.correct++;
    tally.set(a.userId, t);
  }
  const names = new Map(goldQ.namesOf(db, study.id).map((u) => [u.id, u]));
  const reviewers = [...tally]
    .map(([userId, t]) => {
      const accuracy = t.compared ? t.correct / t.compared : null;
      const ci = wilsonInterval(t.correct, t.compared);
      return {
        userId,
        username: names.get(userId)?.username ?? String(userId),
        displayName: names.get(userId)?.displayName ?? null,
        items: t.items.size,
        compared: t.compared,
        correct: t.correct,
        accuracy,
        ...(accuracy === null ? { accuracyReason: 'no_items' as const } : {}),
        intervals: {
          accuracy:
            ci.lower === null
              ? { method: 'wilson' as const, lower: null, upper: null, reason: 'no_items' as const }
              : { method: 'wilson' as const, lower: ci.lower, upper: ci.upper },
        },
        below: settings.alertBelowPct !== null && accuracy !== null && accuracy * 100 < settings.alertBelowPct,
      };
    })
    .sort((a, b) => a.username.localeCompare(b.username));
  return {
    studyId: study.id,
    ratePct: settings.ratePct,
    alertBelowPct: settings.alertBelowPct,
    goldItems: goldItems.size,
    reviewers,
  };
}
