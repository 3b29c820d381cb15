import { json, uploadRoute } from '@/lib/auth/handlers';
import { importAnnotationsForRequest } from '@/lib/server/imports/import-process';
import { getStudy, parseStudyId } from '@/lib/server/studies/studies';
import { withUploadedFile } from '@/lib/server/imports/uploads';

/** Body: the raw file of prior annotations. Query: `format` and `filename`. */
export const POST = uploadRoute(async (actor, request, { id }) => {
  const url = new URL(request.url);
  const format = url.searchParams.get('format') ?? 'concord';
  const filename = (url.searchParams.get('filename') ?? 'annotations.jsonl').slice(0, 200);
  // Who may import is checked before a byte of the upload is stored.
  getStudy(actor, parseStudyId(id));
  const report = await withUploadedFile(request, (file) => importAnnotationsForRequest(actor, parseStudyId(id), file, format, filename));
  return json({ ok: true, data: report });
});
