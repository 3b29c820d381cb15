import { queryOptions } from '@tanstack/react-query';
import type {
  AdjudicationItemDto,
  AdjudicationQueueDto,
  FlowAssignmentDto,
  JudgeAssignmentDto,
  QueueDto,
  RubricAdjudicationItemDto,
  RubricAssignmentDto,
} from '@/lib/server/review/dto';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { headers: { accept: 'application/json' }, cache: 'no-store' });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new HttpError(res.status, (body && typeof body.error === 'string' && body.error) || `Request failed (${res.status})`);
  return body as T;
}

export const queueKey = (studyId: number) => ['queue', studyId] as const;
export const assignmentKey = (assignmentId: number) => ['assignment', assignmentId] as const;

export const queueOptions = (studyId: number) =>
  queryOptions({ queryKey: queueKey(studyId), queryFn: () => getJson<QueueDto>(`/api/studies/${studyId}/queue`) });

export const assignmentOptions = (assignmentId: number) =>
  queryOptions({
    queryKey: assignmentKey(assignmentId),
    queryFn: () => getJson<FlowAssignmentDto>(`/api/assignments/${assignmentId}`),
    staleTime: 5 * 60_000,
  });

export const judgeAssignmentOptions = (assignmentId: number) =>
  queryOptions({
    queryKey: assignmentKey(assignmentId),
    queryFn: () => getJson<JudgeAssignmentDto>(`/api/assignments/${assignmentId}`),
    staleTime: 5 * 60_000,
  });

export const rubricAssignmentOptions = (assignmentId: number) =>
  queryOptions({
    queryKey: assignmentKey(assignmentId),
    queryFn: () => getJson<RubricAssignmentDto>(`/api/assignments/${assignmentId}`),
    staleTime: 5 * 60_000,
  });

export const adjudicationQueueKey = (studyId: number) => ['adjudication-queue', studyId] as const;
export const adjudicationItemKey = (studyId: number, itemId: number) => ['adjudication-item', studyId, itemId] as const;

export const adjudicationQueueOptions = (studyId: number) =>
  queryOptions({
    queryKey: adjudicationQueueKey(studyId),
    queryFn: () => getJson<AdjudicationQueueDto>(`/api/studies/${studyId}/adjudication`),
  });

export const adjudicationItemOptions = (studyId: number, itemId: number) =>
  queryOptions({
    queryKey: adjudicationItemKey(studyId, itemId),
    queryFn: () => getJson<AdjudicationItemDto>(`/api/studies/${studyId}/adjudication/${itemId}`),
    staleTime: 60_000,
  });

export const rubricAdjudicationItemOptions = (studyId: number, itemId: number) =>
  queryOptions({
    queryKey: adjudicationItemKey(studyId, itemId),
    queryFn: () => getJson<RubricAdjudicationItemDto>(`/api/studies/${studyId}/adjudication/${itemId}`),
    staleTime: 60_000,
  });
