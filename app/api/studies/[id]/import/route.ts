import { json, uploadRoute } from '@/lib/auth/handlers';
import { checkItemUpload, importItemsForRequest } from '@/lib/server/imports/import-process';
import { parseStudyId } from '@/lib/server/studies/studies';
import { withUploadedFile } from '@/lib/server/imports/uploads';

/** Body: the raw JSONL file. Query: `format` and `filename`. */
export const POST = uploadRoute(async (actor, request, { id }) => {
  const url = new URL(request.url);
  const format = url.searchParams.get('format') ?? 'concord';
  const filename = (url.searchParams.get('filename') ?? 'upload.jsonl').slice(0, 200);
  // Who may import, and in which format, is checked before a byte of the upload is stored.
  checkItemUpload(actor, parseStudyId(id), format);
  const report = await withUploadedFile(request, (file) => importItemsForRequest(actor, parseStudyId(id), file, format, filename));
  return json({ ok: true, data: report });
});
