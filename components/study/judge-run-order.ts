import type { JudgeRunDto } from '@/lib/server/analytics/dto';

/*
 * Which judge run a dashboard opens on, and the order of the judge selector. A run with no verdicts (a run that
 * failed on every item, or was stopped before its first answer) has nothing to show: it must not be the default nor
 * push the runs that have verdicts down the list. Plain functions, so the server pages and the client selector share
 * them.
 */

/** Runs with verdicts first, in the given order (by name, as the leaderboard lists graders), then the empty ones. */
export function judgeRunsInOrder(runs: readonly JudgeRunDto[]): JudgeRunDto[] {
  return [...runs.filter((r) => r.labels > 0), ...runs.filter((r) => r.labels === 0)];
}

/**
 * The run a dashboard shows: the one asked for (the URL's `judge`) when the study has it, else the newest run with
 * verdicts, else the first run (every run is empty; the dashboard then says so).
 */
export function defaultJudgeRun(runs: readonly JudgeRunDto[], asked?: string): string {
  const named = runs.find((r) => r.name === asked);
  if (named) return named.name;
  const withVerdicts = runs.filter((r) => r.labels > 0);
  if (withVerdicts.length === 0) return runs[0].name;
  return withVerdicts.reduce((newest, r) => (r.createdAt > newest.createdAt ? r : newest)).name;
}
