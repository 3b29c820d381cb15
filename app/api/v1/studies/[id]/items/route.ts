import { OPERATIONS } from '@/lib/api/operations';
import { apiRoute } from '@/lib/auth/api-route';
import { checkItemUpload, importItemsForRequest } from '@/lib/server/imports/import-process';
import { withUploadedFile } from '@/lib/server/imports/uploads';

export const POST = apiRoute(OPERATIONS.importItems, async ({ actor, request, params: { id }, query: { format, filename } }) => {
  // Who may import, and in which format, is checked before a byte of the body is stored.
  checkItemUpload(actor, id, format);
  return withUploadedFile(request, (file) => importItemsForRequest(actor, id, file, format, filename ?? 'api.jsonl'));
});
