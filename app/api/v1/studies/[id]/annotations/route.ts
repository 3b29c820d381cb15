import { OPERATIONS } from '@/lib/api/operations';
import { apiRoute } from '@/lib/auth/api-route';
import { importAnnotationsForRequest } from '@/lib/server/imports/import-process';
import { withUploadedFile } from '@/lib/server/imports/uploads';
import { getStudy } from '@/lib/server/studies/studies';

export const POST = apiRoute(OPERATIONS.importAnnotations, async ({ actor, request, params: { id }, query: { format, filename } }) => {
  // Who may import is checked before a byte of the body is stored.
  getStudy(actor, id);
  return withUploadedFile(request, (file) => importAnnotationsForRequest(actor, id, file, format, filename ?? 'api-annotations.jsonl'));
});
