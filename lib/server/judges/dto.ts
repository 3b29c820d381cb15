/** The types of lib/server/judges that leave the server (pages, components, lib/query, the CLI). */

export type CombineRule = 'all' | 'any' | 'majority';

/** How a combined judge run was made (stored with the run, shown where runs are listed). */
export type JudgeRunRecipeDto = {
  rule: CombineRule;
  /** The source runs, by name, in the order given. */
  runs: string[];
  /** `unjudged`: a pair some source run did not judge is left unjudged; `ignore`: the verdicts there are are combined. */
  missing: 'unjudged' | 'ignore';
  counts: {
    /** (item, criterion) pairs at least one source run judged. */
    pairs: number;
    /** Pairs given a combined verdict (the verdicts of the new run). */
    combined: number;
    /** Pairs left unjudged because the majority was tied. */
    tie: number;
    /** Pairs left unjudged because a source run gave no verdict. */
    missing: number;
  };
};

/** The answer of `combineJudgeRuns`: the new run and its recipe. */
export type CombinedRunDto = { studyId: number; run: string; recipe: JudgeRunRecipeDto };

/* ----- judges run from Concord ----- */

export type JudgeLaunchState = 'running' | 'paused' | 'cancelled' | 'done' | 'circuit_open';

/** What `judge status --json` prints (the first ten fields are DESIGN's shape), and what the progress bar polls. */
export type JudgeRunStatusDto = {
  run: string;
  items: number;
  requests: number;
  sent: number;
  cached: number;
  answered: number;
  unreadable: number;
  failed: number;
  tokensIn: number;
  tokensOut: number;
  runId: number;
  studyId: number;
  state: JudgeLaunchState;
  reason: string | null;
  /** Running, but no runner has been heard of for a while (its process died): it can be resumed. */
  stalled: boolean;
  model: string;
  /** The admin-configured endpoint's name; its URL only for a run the command line pointed at a URL directly. */
  endpoint: string;
  template: { name: string; version: number };
  samples: number;
  bothOrders: boolean;
  concurrency: number;
  /** Answers per second over the last half minute. */
  rate: number;
  /** Seconds to go at that rate; null when nothing is moving. */
  etaSeconds: number | null;
  /** Estimated cost in dollars from the prices per million tokens; null without prices. */
  cost: number | null;
  priceIn: number | null;
  priceOut: number | null;
  meanLatencyMs: number | null;
  startedAt: string | null;
  finishedAt: string | null;
};

export type JudgeTemplateDto = { id: number; name: string; version: number; body: string; createdAt: string };

export type TemplatePreviewDto = {
  item: string;
  criterion: string;
  swapped: boolean;
  messages: { role: 'system' | 'user' | 'assistant'; content: string }[];
  promptHash: string;
  requestsPerItem: number;
};

export type UnreadableAnswerDto = { item: string; criterion: string; sample: number; swapped: boolean; raw: string };

export type LaunchResultDto = { runId: number; name: string; resumed: boolean };

/** A judge run of the study, launched here or imported, as listed on the judge-runs page. */
export type StudyJudgeRunDto = {
  name: string;
  origin: 'launched' | 'imported';
  labels: number;
  createdAt: string;
  status: JudgeRunStatusDto | null;
};

/** Judge runs side by side; rates are null when there is nothing to compute them on (no ground truth yet). */
export type JudgeComparisonDto = {
  studyId: number;
  criteria: { id: string; name: string }[];
  /** Null when no compared run's template carries worked examples; else the items left out of every run's scores. */
  leftOut: LeftOutDto | null;
  runs: {
    name: string;
    origin: 'launched' | 'imported';
    model: string | null;
    template: string | null;
    n: number;
    alignment: number | null;
    alignmentNoTies: number | null;
    kappa: number | null;
    positionConsistency: number | null;
    unreadable: number;
    tokensIn: number | null;
    tokensOut: number | null;
    cost: number | null;
    byCriterion: Record<string, number | null>;
    groundTruthLabels: number;
  }[];
};

/** One rubric run's scores against ground truth: strict, and lenient where the dimensions have a lenient map. */
export type RubricComparisonScoresDto = {
  n: number;
  alignment: number | null;
  macroF1: number | null;
  macroF1Lenient: number | null;
  kappa: number | null;
  kappaLenient: number | null;
};

/** Judge runs of a rubric study side by side (one sample of each); rates are null when there is nothing to compute them on. */
export type RubricJudgeComparisonDto = {
  studyId: number;
  /** The sample of each run compared (a rubric run keeps every sample as a verdict set of its own). */
  sample: number;
  dimensions: { id: string; name: string; lenient: boolean }[];
  /** Null when no compared run's template carries worked examples; else the items left out of every run's scores. */
  leftOut: LeftOutDto | null;
  runs: (RubricComparisonScoresDto & {
    name: string;
    origin: 'launched' | 'imported';
    model: string | null;
    template: string | null;
    samples: number[];
    unreadable: number;
    tokensIn: number | null;
    tokensOut: number | null;
    cost: number | null;
    groundTruthLabels: number;
    byDimension: Record<string, RubricComparisonScoresDto>;
  })[];
};

/** An admin-configured judge endpoint as the admin's page shows it (never the key's value). */
export type JudgeEndpointDto = {
  id: number;
  name: string;
  baseUrl: string;
  /** The NAME of the environment variable holding the key; null for an endpoint without a key. */
  keyEnv: string | null;
  /** Whether that variable is set in the server's environment (a run would stop at once without it). */
  keySet: boolean;
  models: string[];
  priceIn: number | null;
  priceOut: number | null;
  updatedAt: string;
};

/** What a lead chooses from when launching a run: an endpoint by name, one of its models, and its prices. */
export type JudgeEndpointChoiceDto = { name: string; models: string[]; priceIn: number | null; priceOut: number | null };

/* ----- worked examples from disagreements (issue 28, point 4) ----- */

/** The items where a launched run's judge disagreed with the settled ground truth: what a lead picks examples from. */
export type DisagreementsDto = {
  run: string;
  /** The template version the run used (the new version is made from it). */
  template: { name: string; version: number };
  /** Items with at least one disagreement, in all. */
  items: number;
  /** The first 500 of them in position order, each with the criteria where the judge and the ground truth differ. */
  list: { item: string; criteria: { id: string; name: string; judge: string; settled: string }[] }[];
};

/** The template version made from a run's disagreements, and which items it carries as worked examples. */
export type ExamplesVersionDto = {
  template: JudgeTemplateDto;
  from: { run: string; template: { name: string; version: number } };
  /** Items the judge disagreed on, from which the examples were taken. */
  disagreements: number;
  chosen: { by: 'seed'; seed: number } | { by: 'lead' };
  /** One per item: the criterion shown ('*' for a template judging its criteria together) and the settled labels. */
  examples: { item: string; criterion: string; settled: { criterion: string; label: string }[] }[];
};

/** Items left out of a comparison because a compared run's template shows them as worked examples. */
export type LeftOutDto = {
  /** Distinct items left out of every run's scores. */
  items: number;
  because: { run: string; template: string; items: number }[];
  /** Said beside the comparison: "3 items are worked examples in version 2 of pairwise-criterion (run …) …". */
  note: string;
};
