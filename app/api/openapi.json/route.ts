import { openApiDocument } from '@/lib/api/openapi';

// Public: the document describes the API and holds nothing of anyone's data.
export const dynamic = 'force-static';

export function GET() {
  return Response.json(openApiDocument());
}
