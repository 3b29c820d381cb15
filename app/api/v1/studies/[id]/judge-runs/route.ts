import { OPERATIONS } from '@/lib/api/operations';
import { apiRoute } from '@/lib/auth/api-route';
import { importJudgeForRequest } from '@/lib/server/imports/import-process';
import { withUploadedFile } from '@/lib/server/imports/uploads';
import { getStudy } from '@/lib/server/studies/studies';

export const POST = apiRoute(OPERATIONS.importJudgeRun, async ({ actor, request, params: { id }, query: { name, format, filename } }) => {
  // Who may import is checked before a byte of the body is stored.
  getStudy(actor, id);
  return withUploadedFile(request, (file) => importJudgeForRequest(actor, id, file, format, name, filename ?? 'api-judge.jsonl'));
});
