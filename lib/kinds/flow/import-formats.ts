import type { ImportFormatList } from '../facets/import-formats';

/** What a flow-review study imports (pure: the browser reads it too); the readers are in `imports.ts`. */
export const FLOW_IMPORT_FORMATS = {
  items: [
    { id: 'concord', name: 'Concord JSONL', description: 'one dialogue flow per line' },
    { id: 'mathdial', name: 'MathDial JSONL', description: 'MathDial conversations, one per line' },
  ],
  annotations: [],
  judge: [],
} as const satisfies ImportFormatList;
