import { OPERATIONS } from '@/lib/api/operations';
import { apiRoute } from '@/lib/auth/api-route';
import { setGoldOfItemNamed } from '@/lib/server/review/gold';

export const PUT = apiRoute(OPERATIONS.setItemGold, ({ actor, params: { id, item }, body }) =>
  setGoldOfItemNamed(actor, id, { item, labels: body.labels }),
);
