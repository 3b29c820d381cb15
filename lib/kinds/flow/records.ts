/*
 * The readers of a flow-review study's import formats, one per format id of `import-formats.ts` (the compiler holds
 * the two together). No database here.
 */
import { mathdialFlows } from '@/lib/io/adapters/mathdial';
import type { JsonlOptions } from '@/lib/io/jsonl';
import type { RecordResult } from '@/lib/io/record-result';
import { concordRecords, readerFor, validated } from '@/lib/io/records';
import { flowItemSchema, type FlowItem } from '@/lib/validation/flow';
import type { FormatId } from '../facets/import-formats';
import { FLOW_IMPORT_FORMATS } from './import-formats';

export const FLOW_ITEM_READERS = {
  concord: (path: string, opts?: JsonlOptions) => concordRecords(flowItemSchema, path, opts),
  mathdial: (path: string, opts?: JsonlOptions) => validated(flowItemSchema, mathdialFlows(path, opts), 'line'),
} satisfies Record<FormatId<typeof FLOW_IMPORT_FORMATS.items>, (path: string, opts?: JsonlOptions) => Generator<RecordResult<FlowItem>>>;

/** Flow items from a Concord JSONL file or a MathDial JSONL file (see lib/io/adapters/mathdial.ts). */
export function flowRecords(
  path: string,
  format: FormatId<typeof FLOW_IMPORT_FORMATS.items>,
  opts?: JsonlOptions,
): Generator<RecordResult<FlowItem>> {
  return readerFor(FLOW_ITEM_READERS, format, 'flow')(path, opts);
}
