/* A flow-review study's part of its imports (the cores are in lib/server/imports): items only, with their step count. */
import * as itemsQ from '@/db/queries/items';
import type { FlowItem } from '@/lib/validation/flow';
import type { ImportsFacet } from '../facets/imports';
import { FLOW_IMPORT_FORMATS } from './import-formats';
import { flowRecords } from './records';

export const flowImports: ImportsFacet = {
  formats: FLOW_IMPORT_FORMATS,
  items: {
    read: (file, format) => flowRecords(file, format as Parameters<typeof flowRecords>[1]),
    payload: (item: FlowItem) => JSON.stringify(item),
    insert: (db, row, item: FlowItem) => itemsQ.insertItem(db, { ...row, stepCount: item.steps.length, sourceA: null, sourceB: null }),
    recordWord: 'line',
  },
  annotations: null,
  judge: null,
};
