import { json, uploadRoute } from '@/lib/auth/handlers';
import { importJudgeForRequest } from '@/lib/server/imports/import-process';
import { getStudy, parseStudyId } from '@/lib/server/studies/studies';
import { withUploadedFile } from '@/lib/server/imports/uploads';

/**
 * Body: the raw judge file. Query: `format`, optional `judge` (the run name) and `filename`. A file of more than a
 * few thousand verdicts is imported by a process of its own (`importJudgeForRequest`), in short batches, so this
 * server keeps answering and other writers are never held up for long.
 */
export const POST = uploadRoute(async (actor, request, { id }) => {
  const url = new URL(request.url);
  const format = url.searchParams.get('format') ?? 'concord';
  const judge = url.searchParams.get('judge')?.trim() || undefined;
  const filename = (url.searchParams.get('filename') ?? 'judge.jsonl').slice(0, 200);
  // Who may import is checked before a byte of the upload is stored.
  getStudy(actor, parseStudyId(id));
  const report = await withUploadedFile(request, (file) => importJudgeForRequest(actor, parseStudyId(id), file, format, judge, filename));
  return json({ ok: true, data: report });
});
