import { z } from 'zod';
// Before any schema is built: in the browser, zod must not try `new Function` (see common.ts).
import './common';
import { GOLD_RATE_MAX_PCT } from '@/lib/assign/gold';

const pctFromForm = (max: number, what: string) =>
  z.coerce
    .number({ error: `${what} must be a number.` })
    .int({ error: `${what} must be a whole number of percent.` })
    .min(0, { error: `${what} must be at least 0 %.` })
    .max(max, { error: `${what} must be at most ${max} %.` });

/** A study's gold settings as a form or the CLI sends them; an empty threshold means "never warn". */
export const goldSettingsSchema = z.object({
  ratePct: pctFromForm(GOLD_RATE_MAX_PCT, 'Gold rate').default(0),
  alertBelowPct: z.preprocess((v) => (v === '' || v === undefined ? null : v), pctFromForm(100, 'Accuracy threshold').nullable()),
});
export type GoldSettingsInput = z.input<typeof goldSettingsSchema>;

/**
 * A lead's gold labels for one item: unit → label name, or null (or '') to unmark the unit. The names are checked
 * against the study's kind by the use-case.
 */
const goldLabels = z.record(
  z.string().min(1),
  z.preprocess((v) => (v === '' ? null : v), z.string().trim().min(1).nullable()),
);
export const setGoldSchema = z.object({
  itemId: z.coerce.number().int().positive(),
  labels: goldLabels,
});

/** The same, naming the item by its id in the imported file (the command line, the HTTP API). */
export const setGoldByItemIdSchema = z.object({
  item: z.string().min(1, { error: 'Name the item by its id in the imported file.' }),
  labels: goldLabels,
});
