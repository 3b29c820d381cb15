/**
 * LLM judges: imported and combined runs with their verdicts, and the tables of judges run from Concord (templates,
 * launches, answers, answer cache).
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './accounts';
import { LABELS } from './annotations';
import { createdAt } from './columns';
import { items, studies } from './studies';

/** The recipe of a combined judge run (DESIGN "Combined judges"). */
export type JudgeRunRecipe = {
  rule: 'all' | 'any' | 'majority';
  /** The combined runs, by name, in the order given. */
  runs: string[];
  /** Pairs some source run did not judge: left unjudged (`unjudged`) or combined from the verdicts there are (`ignore`). */
  missing: 'unjudged' | 'ignore';
  /** (item, criterion) pairs judged by at least one source run; combined; left unjudged by a majority tie; left unjudged for a missing verdict. */
  counts: { pairs: number; combined: number; tie: number; missing: number };
};

/** A named set of LLM-judge labels for a study (e.g. one model with one prompt). Never shown to annotators. */
export const judgeRuns = sqliteTable(
  'judge_runs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    studyId: integer('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    format: text('format').notNull(),
    filename: text('filename').notNull(),
    // Records left out because the verdict could not be read (never guessed), with their items.
    unparsed: text('unparsed', { mode: 'json' }).$type<{ item: string; line: number; message: string }[]>().notNull(),
    // The import that writes the run (imports.id; null for runs older than this column). A run is 'staging' while
    // its verdicts go in by short batches, and nobody reads it until its import's last transaction makes it
    // 'done'; a failed or abandoned import deletes it again (lib/server/imports/import-staging.ts).
    importId: integer('import_id'),
    state: text('state', { enum: ['staging', 'done'] })
      .notNull()
      .default('done'),
    // How a combined run was made from other runs of the study (format 'combined'): the rule, the source runs and
    // what was left unjudged. Null for imported runs.
    recipe: text('recipe', { mode: 'json' }).$type<JudgeRunRecipe>(),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('judge_runs_study_name_unique').on(t.studyId, t.name), index('judge_runs_created_by_idx').on(t.createdBy)],
);

export const judgeLabels = sqliteTable(
  'judge_labels',
  {
    runId: integer('run_id')
      .notNull()
      .references(() => judgeRuns.id, { onDelete: 'cascade' }),
    itemId: integer('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    criterion: text('criterion').notNull(),
    // True when the judge saw the replies in the order b, a; the label is still from a's side.
    swapped: integer('swapped', { mode: 'boolean' }).notNull().default(false),
    label: text('label', { enum: LABELS }).notNull(),
    rationale: text('rationale'),
    // The judge's own confidence in this verdict, 0–1, when its file gave one (checked on import; no CHECK here, which
    // would rebuild a table of millions of rows).
    confidence: real('confidence'),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.itemId, t.criterion, t.swapped] }),
    check('judge_labels_label_valid', sql`${t.label} IN ('lose', 'tie', 'win')`),
    index('judge_labels_item_idx').on(t.itemId),
  ],
);

/*
 * Judges run from Concord (DESIGN "Running judges from Concord"). A launched run is an ordinary `judge_runs` row in
 * state 'done' (so every dashboard reads its verdicts as they arrive, and they stay append-only), with its
 * configuration and its own life cycle in `judge_launches`, one row per request answered in `judge_answers`, and
 * the verdicts of sample 1 also written to `judge_labels` as those of an imported run.
 */

export const JUDGE_LAUNCH_STATES = ['running', 'paused', 'cancelled', 'done', 'circuit_open'] as const;

/** A prompt template of a study; editing one adds a new version under the same name, never changes an old one. */
export const judgeTemplates = sqliteTable(
  'judge_templates',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    studyId: integer('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    version: integer('version').notNull(),
    // The template JSON as validated by lib/validation/judge-template.ts.
    body: text('body').notNull(),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('judge_templates_study_name_version_unique').on(t.studyId, t.name, t.version),
    check('judge_templates_version_positive', sql`${t.version} >= 1`),
    index('judge_templates_created_by_idx').on(t.createdBy),
  ],
);

/**
 * The chat-completions endpoints leads may run judges against, configured by an admin (issue 21): a lead chooses
 * one by name and never names a URL or an environment variable. `key_env` is the NAME of the environment variable
 * holding the endpoint's key (never its value); `models` is a JSON array of the model names leads may choose.
 * Prices are US dollars per million tokens, as decimal text (for the cost estimate only).
 */
export const judgeEndpoints = sqliteTable(
  'judge_endpoints',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    baseUrl: text('base_url').notNull(),
    keyEnv: text('key_env'),
    models: text('models', { mode: 'json' }).$type<string[]>().notNull(),
    priceIn: text('price_in'),
    priceOut: text('price_out'),
    createdBy: integer('created_by').references(() => users.id),
    updatedBy: integer('updated_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' })
      .notNull()
      .default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [
    uniqueIndex('judge_endpoints_name_unique').on(t.name),
    index('judge_endpoints_created_by_idx').on(t.createdBy),
    index('judge_endpoints_updated_by_idx').on(t.updatedBy),
  ],
);

/** The configuration and state of a judge run launched from Concord. The API key's value is never stored. */
export const judgeLaunches = sqliteTable(
  'judge_launches',
  {
    runId: integer('run_id')
      .primaryKey()
      .references(() => judgeRuns.id, { onDelete: 'cascade' }),
    templateId: integer('template_id')
      .notNull()
      .references(() => judgeTemplates.id),
    // The admin-configured endpoint the run uses (null: named directly on the command line, or since removed);
    // the runner reads its URL and key variable from there, `endpoint` and `api_key_env` keep what it was at launch.
    endpointId: integer('endpoint_id').references(() => judgeEndpoints.id, { onDelete: 'set null' }),
    endpoint: text('endpoint').notNull(),
    model: text('model').notNull(),
    // The NAME of the environment variable holding the key, read by the runner process only.
    apiKeyEnv: text('api_key_env'),
    temperature: integer('temperature_milli'),
    maxTokens: integer('max_tokens'),
    seed: integer('seed'),
    samples: integer('samples').notNull().default(1),
    bothOrders: integer('both_orders', { mode: 'boolean' }).notNull().default(true),
    concurrency: integer('concurrency').notNull().default(4),
    itemLimit: integer('item_limit'),
    timeoutMs: integer('timeout_ms').notNull(),
    maxAttempts: integer('max_attempts').notNull(),
    circuitAfter: integer('circuit_after').notNull(),
    // Prices in US dollars per million tokens, entered by the lead (for the cost estimate only).
    priceIn: text('price_in'),
    priceOut: text('price_out'),
    state: text('state', { enum: JUDGE_LAUNCH_STATES }).notNull().default('running'),
    reason: text('reason'),
    requests: integer('requests').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    ownerPid: integer('owner_pid'),
    ownerHost: text('owner_host'),
    heartbeatAt: integer('heartbeat_at'),
    startedAt: integer('started_at'),
    finishedAt: integer('finished_at'),
  },
  (t) => [
    check('judge_launches_samples_range', sql`${t.samples} BETWEEN 1 AND 100`),
    check('judge_launches_concurrency_range', sql`${t.concurrency} BETWEEN 1 AND 256`),
    index('judge_launches_state_idx').on(t.state),
    index('judge_launches_template_idx').on(t.templateId),
    index('judge_launches_endpoint_idx').on(t.endpointId),
  ],
);

/**
 * One row per request answered: an item, a criterion ('*' for a template judging all its criteria together), a
 * sample and an order. The key makes a second write of the same answer impossible. `verdicts` is a JSON object
 * from criterion to canonical label ({} when nothing could be read); `unreadable` counts the criteria it could
 * not read; `raw` is the judge's text, kept for the lead.
 */
export const judgeAnswers = sqliteTable(
  'judge_answers',
  {
    runId: integer('run_id')
      .notNull()
      .references(() => judgeRuns.id, { onDelete: 'cascade' }),
    itemId: integer('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    criterion: text('criterion').notNull(),
    sample: integer('sample').notNull(),
    swapped: integer('swapped', { mode: 'boolean' }).notNull(),
    verdicts: text('verdicts').notNull(),
    unreadable: integer('unreadable').notNull(),
    raw: text('raw').notNull(),
    promptHash: text('prompt_hash').notNull(),
    tokensIn: integer('tokens_in').notNull().default(0),
    tokensOut: integer('tokens_out').notNull().default(0),
    latencyMs: integer('latency_ms').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    cached: integer('cached', { mode: 'boolean' }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.itemId, t.criterion, t.sample, t.swapped] }),
    index('judge_answers_run_created_idx').on(t.runId, t.createdAt),
    index('judge_answers_item_idx').on(t.itemId),
  ],
);

/** Answers by hash(endpoint, model, parameters, rendered prompt, sample): an unchanged request is not sent again. */
export const judgeAnswerCache = sqliteTable('judge_answer_cache', {
  key: text('key').primaryKey(),
  raw: text('raw').notNull(),
  tokensIn: integer('tokens_in').notNull(),
  tokensOut: integer('tokens_out').notNull(),
  createdAt: createdAt(),
});
