import { queryOptions } from '@tanstack/react-query';
import type { StudyJudgeRunDto, UnreadableAnswerDto } from '@/lib/server/judges/dto';
import { getJson } from './review';

export const judgeRunsKey = (studyId: number) => ['judge-runs', studyId] as const;

/** The study's judge runs; polled every second while one of them is running, else left alone. */
export const judgeRunsOptions = (studyId: number) =>
  queryOptions({
    queryKey: judgeRunsKey(studyId),
    queryFn: () => getJson<StudyJudgeRunDto[]>(`/api/studies/${studyId}/judge-runs`),
    refetchInterval: (q) => (q.state.data?.some((r) => r.status?.state === 'running') ? 1_000 : false),
  });

export const unreadableOptions = (studyId: number, runId: number) =>
  queryOptions({
    queryKey: ['judge-run-unreadable', studyId, runId] as const,
    queryFn: () => getJson<UnreadableAnswerDto[]>(`/api/studies/${studyId}/judge-runs/${runId}/unreadable`),
  });
