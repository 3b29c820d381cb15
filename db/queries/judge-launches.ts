import { inTransaction, stmt, type Db } from '../client';

/*
 * Judges run from Concord: templates, launches, answers and the answer cache (db/schema/judges.ts, migration 0016).
 * A launched run is a `judge_runs` row in state 'done' with format 'runner', so the dashboards read it as they
 * read an imported run; its verdicts of sample 1 are written to `judge_labels` in the transaction of their answer.
 */

export type TemplateRow = { id: number; studyId: number; name: string; version: number; body: string; createdAt: number };

const TEMPLATE_COLS = 'id, study_id AS studyId, name, version, body, created_at AS createdAt';

/** Adds a version of the study's template `name` (1 for a new name); returns it. */
export const insertTemplateVersion = (db: Db, v: { studyId: number; name: string; body: string; createdBy: number }) =>
  inTransaction(db, () => {
    const version =
      (stmt(db, 'SELECT coalesce(max(version), 0) FROM judge_templates WHERE study_id = ? AND name = ?')
        .pluck()
        .get(v.studyId, v.name) as number) + 1;
    const id = Number(
      stmt(db, 'INSERT INTO judge_templates (study_id, name, version, body, created_by) VALUES (?, ?, ?, ?, ?)').run(
        v.studyId,
        v.name,
        version,
        v.body,
        v.createdBy,
      ).lastInsertRowid,
    );
    return { id, version };
  });

export const latestTemplate = (db: Db, studyId: number, name: string) =>
  stmt(db, `SELECT ${TEMPLATE_COLS} FROM judge_templates WHERE study_id = ? AND name = ? ORDER BY version DESC LIMIT 1`).get(
    studyId,
    name,
  ) as TemplateRow | undefined;

export const templateById = (db: Db, id: number) =>
  stmt(db, `SELECT ${TEMPLATE_COLS} FROM judge_templates WHERE id = ?`).get(id) as TemplateRow | undefined;

/** Every version of every template of the study, newest version first within a name. */
export const studyTemplates = (db: Db, studyId: number) =>
  stmt(db, `SELECT ${TEMPLATE_COLS} FROM judge_templates WHERE study_id = ? ORDER BY name, version DESC`).all(studyId) as TemplateRow[];

/** The version of the study's template `name` whose body is exactly `body`, if any (the newest such). */
export const templateWithBody = (db: Db, studyId: number, name: string, body: string) =>
  stmt(db, `SELECT ${TEMPLATE_COLS} FROM judge_templates WHERE study_id = ? AND name = ? AND body = ? ORDER BY version DESC LIMIT 1`).get(
    studyId,
    name,
    body,
  ) as TemplateRow | undefined;

export type LaunchRow = {
  runId: number;
  studyId: number;
  name: string;
  templateId: number;
  endpointId: number | null;
  /** The configured endpoint's name (null for a URL named on the command line, or a removed endpoint). */
  endpointName: string | null;
  endpoint: string;
  model: string;
  apiKeyEnv: string | null;
  temperatureMilli: number | null;
  maxTokens: number | null;
  seed: number | null;
  samples: number;
  bothOrders: number;
  concurrency: number;
  itemLimit: number | null;
  timeoutMs: number;
  maxAttempts: number;
  circuitAfter: number;
  priceIn: string | null;
  priceOut: string | null;
  state: 'running' | 'paused' | 'cancelled' | 'done' | 'circuit_open';
  reason: string | null;
  requests: number;
  failed: number;
  ownerPid: number | null;
  ownerHost: string | null;
  heartbeatAt: number | null;
  startedAt: number | null;
  finishedAt: number | null;
  createdAt: number;
};

const LAUNCH_COLS = `l.run_id AS runId, r.study_id AS studyId, r.name, l.template_id AS templateId, l.endpoint_id AS endpointId,
  (SELECT e.name FROM judge_endpoints e WHERE e.id = l.endpoint_id) AS endpointName, l.endpoint, l.model,
  l.api_key_env AS apiKeyEnv, l.temperature_milli AS temperatureMilli, l.max_tokens AS maxTokens, l.seed, l.samples,
  l.both_orders AS bothOrders, l.concurrency, l.item_limit AS itemLimit, l.timeout_ms AS timeoutMs,
  l.max_attempts AS maxAttempts, l.circuit_after AS circuitAfter, l.price_in AS priceIn, l.price_out AS priceOut,
  l.state, l.reason, l.requests, l.failed, l.owner_pid AS ownerPid, l.owner_host AS ownerHost,
  l.heartbeat_at AS heartbeatAt, l.started_at AS startedAt, l.finished_at AS finishedAt, r.created_at AS createdAt`;

export const findLaunch = (db: Db, runId: number) =>
  stmt(db, `SELECT ${LAUNCH_COLS} FROM judge_launches l JOIN judge_runs r ON r.id = l.run_id WHERE l.run_id = ?`).get(runId) as
    LaunchRow | undefined;

/** The judge run of this name in the study (imported or launched): its id, and whether it was launched here. */
export const runByName = (db: Db, studyId: number, name: string) =>
  stmt(
    db,
    'SELECT r.id, r.state, EXISTS (SELECT 1 FROM judge_launches l WHERE l.run_id = r.id) AS launched FROM judge_runs r WHERE r.study_id = ? AND r.name = ?',
  ).get(studyId, name) as { id: number; state: string; launched: number } | undefined;

/** Launched runs named `name`, in any study (for `judge status NAME`). */
export const launchesNamed = (db: Db, name: string) =>
  stmt(db, `SELECT ${LAUNCH_COLS} FROM judge_launches l JOIN judge_runs r ON r.id = l.run_id WHERE r.name = ? ORDER BY l.run_id`).all(
    name,
  ) as LaunchRow[];

export const studyLaunches = (db: Db, studyId: number) =>
  stmt(
    db,
    `SELECT ${LAUNCH_COLS} FROM judge_launches l JOIN judge_runs r ON r.id = l.run_id WHERE r.study_id = ? ORDER BY l.run_id DESC`,
  ).all(studyId) as LaunchRow[];

export const launchesInState = (db: Db, state: LaunchRow['state']) =>
  stmt(db, `SELECT ${LAUNCH_COLS} FROM judge_launches l JOIN judge_runs r ON r.id = l.run_id WHERE l.state = ?`).all(state) as LaunchRow[];

export type NewLaunch = Omit<
  LaunchRow,
  | 'runId'
  | 'studyId'
  | 'name'
  | 'endpointName'
  | 'state'
  | 'reason'
  | 'requests'
  | 'failed'
  | 'ownerPid'
  | 'ownerHost'
  | 'heartbeatAt'
  | 'startedAt'
  | 'finishedAt'
  | 'createdAt'
>;

/** Creates a launched run (visible at once: state 'done' in judge_runs) and its launch row; returns the run id. */
export const insertLaunchedRun = (
  db: Db,
  run: { studyId: number; name: string; filename: string; createdBy: number },
  l: NewLaunch,
  requests: number,
) =>
  inTransaction(db, () => {
    const runId = Number(
      stmt(
        db,
        "INSERT INTO judge_runs (study_id, name, format, filename, unparsed, state, created_by) VALUES (?, ?, 'runner', ?, '[]', 'done', ?)",
      ).run(run.studyId, run.name, run.filename, run.createdBy).lastInsertRowid,
    );
    stmt(
      db,
      `INSERT INTO judge_launches (run_id, template_id, endpoint_id, endpoint, model, api_key_env, temperature_milli, max_tokens, seed, samples,
         both_orders, concurrency, item_limit, timeout_ms, max_attempts, circuit_after, price_in, price_out, requests, state)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'running')`,
    ).run(
      runId,
      l.templateId,
      l.endpointId,
      l.endpoint,
      l.model,
      l.apiKeyEnv,
      l.temperatureMilli,
      l.maxTokens,
      l.seed,
      l.samples,
      l.bothOrders,
      l.concurrency,
      l.itemLimit,
      l.timeoutMs,
      l.maxAttempts,
      l.circuitAfter,
      l.priceIn,
      l.priceOut,
      requests,
    );
    return runId;
  });

/** Sets what may change between two sittings of a run (concurrency, limits, prices). */
export const updateLaunchSettings = (
  db: Db,
  runId: number,
  s: Pick<LaunchRow, 'concurrency' | 'itemLimit' | 'timeoutMs' | 'maxAttempts' | 'circuitAfter' | 'priceIn' | 'priceOut'>,
) =>
  stmt(
    db,
    'UPDATE judge_launches SET concurrency = ?, item_limit = ?, timeout_ms = ?, max_attempts = ?, circuit_after = ?, price_in = ?, price_out = ? WHERE run_id = ?',
  ).run(s.concurrency, s.itemLimit, s.timeoutMs, s.maxAttempts, s.circuitAfter, s.priceIn, s.priceOut, runId);

/** How many requests the run sends in all (set at launch, and again by the runner when it starts). */
export const setLaunchRequests = (db: Db, runId: number, requests: number) =>
  stmt(db, 'UPDATE judge_launches SET requests = ? WHERE run_id = ?').run(requests, runId);

/** Moves a run to `to` if it is in one of `from`; false if it was not. */
export const setLaunchState = (db: Db, runId: number, from: readonly LaunchRow['state'][], to: LaunchRow['state'], reason: string | null) =>
  stmt(
    db,
    `UPDATE judge_launches SET state = ?, reason = ?, finished_at = CASE WHEN ? IN ('done', 'cancelled') THEN ? ELSE NULL END
      WHERE run_id = ? AND state IN (SELECT value FROM json_each(?))`,
  ).run(to, reason, to, Date.now(), runId, JSON.stringify(from)).changes === 1;

export const launchState = (db: Db, runId: number) =>
  stmt(db, 'SELECT state FROM judge_launches WHERE run_id = ?').pluck().get(runId) as LaunchRow['state'] | undefined;

/**
 * Makes process `pid` on `host` the runner of a run, unless another live runner holds it: one whose heartbeat is
 * younger than `staleBefore` and whose process `isAlive` says exists. Returns whether the claim succeeded.
 */
export const claimLaunch = (
  db: Db,
  runId: number,
  pid: number,
  host: string,
  now: number,
  staleBefore: number,
  isAlive: (pid: number, host: string) => boolean,
) =>
  inTransaction(db, () => {
    const l = stmt(db, 'SELECT owner_pid AS pid, owner_host AS host, heartbeat_at AS beat FROM judge_launches WHERE run_id = ?').get(
      runId,
    ) as { pid: number | null; host: string | null; beat: number | null } | undefined;
    if (!l) return false;
    if (l.pid !== null && !(l.pid === pid && l.host === host) && (l.beat ?? 0) >= staleBefore && isAlive(l.pid, l.host ?? '')) return false;
    stmt(
      db,
      'UPDATE judge_launches SET owner_pid = ?, owner_host = ?, heartbeat_at = ?, started_at = coalesce(started_at, ?), failed = 0 WHERE run_id = ?',
    ).run(pid, host, now, now, runId);
    return true;
  });

export const heartbeatLaunch = (db: Db, runId: number, pid: number, now: number) =>
  stmt(db, 'UPDATE judge_launches SET heartbeat_at = ? WHERE run_id = ? AND owner_pid = ?').run(now, runId, pid);

export const releaseLaunch = (db: Db, runId: number, pid: number) =>
  stmt(db, 'UPDATE judge_launches SET owner_pid = NULL, owner_host = NULL, heartbeat_at = NULL WHERE run_id = ? AND owner_pid = ?').run(
    runId,
    pid,
  );

/**
 * Hands a paused (or cancelled) run back, releasing it as `releaseLaunch` does, unless it is running again: a lead
 * resumed it while its runner was still waiting for requests in flight. Then the runner keeps it (the runner the
 * resume started found this one alive and left) and false is returned. One transaction, so a resume is either
 * before it (this runner goes on) or after it (the resume's runner finds the run free).
 */
export const releaseUnlessRunning = (db: Db, runId: number, pid: number) =>
  inTransaction(db, () => {
    if (launchState(db, runId) === 'running') return false;
    releaseLaunch(db, runId, pid);
    return true;
  });

export const setLaunchCounts = (db: Db, runId: number, requests: number, failed: number) =>
  stmt(db, 'UPDATE judge_launches SET requests = ?, failed = ? WHERE run_id = ?').run(requests, failed, runId);

/* ----- items ----- */

/**
 * One page of the study's items in position order, after position `after`: how a run reads its items, a page at a
 * time, so its memory does not grow with the study.
 */
/**
 * The first `limit` items of a study (all with null), in position order, counted by their principles (the JSON text
 * of `principles`, null without): the only part of an item that decides how many requests a run sends for it.
 */
export const itemCountsByPrinciples = (db: Db, studyId: number, limit: number | null) =>
  stmt(
    db,
    `SELECT json_extract(payload, '$.principles') AS principles, count(*) AS n
       FROM (SELECT payload FROM items WHERE study_id = ? ORDER BY position LIMIT ?) GROUP BY 1`,
  ).all(studyId, limit ?? -1) as { principles: string | null; n: number }[];

export const itemsPageForRun = (db: Db, studyId: number, after: number, limit: number) =>
  stmt(db, 'SELECT id, position, payload FROM items WHERE study_id = ? AND position > ? ORDER BY position LIMIT ?').all(
    studyId,
    after,
    limit,
  ) as {
    id: number;
    position: number;
    payload: string;
  }[];

export const itemForPreview = (db: Db, studyId: number, externalId: string | null) =>
  (externalId === null
    ? stmt(db, 'SELECT id, external_id AS externalId, payload FROM items WHERE study_id = ? ORDER BY position LIMIT 1').get(studyId)
    : stmt(db, 'SELECT id, external_id AS externalId, payload FROM items WHERE study_id = ? AND external_id = ?').get(
        studyId,
        externalId,
      )) as { id: number; externalId: string; payload: string } | undefined;

/** Any one item of the study, chosen at random: the preview's "a random item". */
export const randomItemForPreview = (db: Db, studyId: number) =>
  stmt(db, 'SELECT id, external_id AS externalId, payload FROM items WHERE study_id = ? ORDER BY random() LIMIT 1').get(studyId) as
    { id: number; externalId: string; payload: string } | undefined;

/* ----- answers ----- */

/**
 * The keys `item|criterion|sample|swapped` of the answers a run has on the items `itemIds` (a page of items): what a
 * resumed run does not send again.
 */
export const answeredKeysOfItems = (db: Db, runId: number, itemIds: readonly number[]) =>
  new Set(
    stmt(
      db,
      "SELECT item_id || '|' || criterion || '|' || sample || '|' || swapped FROM judge_answers WHERE run_id = ? AND item_id IN (SELECT value FROM json_each(?))",
    )
      .pluck()
      .all(runId, JSON.stringify(itemIds)) as string[],
  );

/** How many answers a run has. */
export const answerCount = (db: Db, runId: number) =>
  stmt(db, 'SELECT count(*) FROM judge_answers WHERE run_id = ?').pluck().get(runId) as number;

export type NewAnswer = {
  runId: number;
  itemId: number;
  criterion: string;
  sample: number;
  swapped: boolean;
  verdicts: Record<string, string>;
  unreadable: number;
  raw: string;
  promptHash: string;
  tokensIn: number;
  tokensOut: number;
  latencyMs: number;
  attempts: number;
  cached: boolean;
};

/**
 * Stores one answer and, through `alsoWrite` (the verdict-writing step of the study's kind), its verdicts, in one
 * transaction. False when that answer was stored already (the run's key holds it once).
 */
export const insertAnswer = (db: Db, a: NewAnswer, alsoWrite: () => void) =>
  inTransaction(db, () => insertAnswerInTransaction(db, a, alsoWrite));

/** `insertAnswer` for a caller already in a transaction (`inOneTransaction`): no savepoint per answer. */
export const insertAnswerInTransaction = (db: Db, a: NewAnswer, alsoWrite: () => void) => {
  const inserted = stmt(
    db,
    `INSERT OR IGNORE INTO judge_answers (run_id, item_id, criterion, sample, swapped, verdicts, unreadable, raw, prompt_hash,
       tokens_in, tokens_out, latency_ms, attempts, cached) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    a.runId,
    a.itemId,
    a.criterion,
    a.sample,
    a.swapped ? 1 : 0,
    JSON.stringify(a.verdicts),
    a.unreadable,
    a.raw,
    a.promptHash,
    a.tokensIn,
    a.tokensOut,
    a.latencyMs,
    a.attempts,
    a.cached ? 1 : 0,
  ).changes;
  if (inserted === 1) alsoWrite();
  return inserted === 1;
};

/** Runs `fn` (several `insertAnswer`s) in one transaction: one commit, one wait for the disk. */
export const inOneTransaction = (db: Db, fn: () => void) => inTransaction(db, fn);

/** A pairwise verdict of a launched run, as an imported run's verdict (no-op if that verdict exists). */
export const insertPairwiseVerdict = (db: Db, runId: number, itemId: number, criterion: string, swapped: boolean, label: string) =>
  stmt(db, 'INSERT OR IGNORE INTO judge_labels (run_id, item_id, criterion, swapped, label, rationale) VALUES (?, ?, ?, ?, ?, NULL)').run(
    runId,
    itemId,
    criterion,
    swapped ? 1 : 0,
    label,
  );

/** A rubric verdict of a launched run, as dimension and label codes with its sample (no-op if it exists). */
export const insertRubricVerdict = (db: Db, runId: number, itemId: number, dimension: number, sample: number, label: number) =>
  stmt(
    db,
    'INSERT OR IGNORE INTO rubric_judge_labels (run_id, item_id, dimension, sample, label, rationale) VALUES (?, ?, ?, ?, ?, NULL)',
  ).run(runId, itemId, dimension, sample, label);

export type RunTotals = {
  answered: number;
  sent: number;
  cached: number;
  unreadable: number;
  tokensIn: number;
  tokensOut: number;
  latencyMs: number;
  firstAt: number | null;
  lastAt: number | null;
};

/** The totals of a run's answers; tokens and latency only of answers that came from the endpoint. */
export const runTotals = (db: Db, runId: number) =>
  stmt(
    db,
    `SELECT count(*) AS answered, coalesce(sum(cached = 0), 0) AS sent, coalesce(sum(cached), 0) AS cached,
            coalesce(sum(unreadable > 0), 0) AS unreadable,
            coalesce(sum(CASE WHEN cached = 0 THEN tokens_in END), 0) AS tokensIn,
            coalesce(sum(CASE WHEN cached = 0 THEN tokens_out END), 0) AS tokensOut,
            coalesce(sum(CASE WHEN cached = 0 THEN latency_ms END), 0) AS latencyMs,
            min(created_at) AS firstAt, max(created_at) AS lastAt
       FROM judge_answers WHERE run_id = ?`,
  ).get(runId) as RunTotals;

/** Answers stored since `since` (ms), for the rate shown while a run is going. */
export const answersSince = (db: Db, runId: number, since: number) =>
  stmt(db, 'SELECT count(*) FROM judge_answers WHERE run_id = ? AND created_at >= ?').pluck().get(runId, since) as number;

/** The run's unreadable answers with their raw text (lead only), newest first. */
export const unreadableAnswers = (db: Db, runId: number, limit: number) =>
  stmt(
    db,
    `SELECT i.external_id AS item, a.criterion, a.sample, a.swapped, a.raw, a.verdicts
       FROM judge_answers a JOIN items i ON i.id = a.item_id
      WHERE a.run_id = ? AND a.unreadable > 0 ORDER BY a.created_at DESC LIMIT ?`,
  ).all(runId, limit) as { item: string; criterion: string; sample: number; swapped: number; raw: string; verdicts: string }[];

/* ----- cache ----- */

export const cachedAnswer = (db: Db, key: string) =>
  stmt(db, 'SELECT raw, tokens_in AS tokensIn, tokens_out AS tokensOut FROM judge_answer_cache WHERE key = ?').get(key) as
    { raw: string; tokensIn: number; tokensOut: number } | undefined;

export const putCachedAnswer = (db: Db, key: string, raw: string, tokensIn: number, tokensOut: number) =>
  stmt(db, 'INSERT OR IGNORE INTO judge_answer_cache (key, raw, tokens_in, tokens_out) VALUES (?, ?, ?, ?)').run(
    key,
    raw,
    tokensIn,
    tokensOut,
  );
