import type { RubricCatalogName } from '@/lib/validation/rubric-catalogs';
import type { ImportFormatList } from '../facets/import-formats';

/** What a rubric study imports (pure: the browser reads it too); the readers are in `imports.ts`. */
export const RUBRIC_IMPORT_FORMATS = {
  items: [
    { id: 'concord', name: 'Concord JSONL', description: 'one rubric item per line' },
    {
      id: 'mrbench',
      name: 'MRBench V3 JSON (with gold labels)',
      description: 'MRBench V3: each tutor reply an item, its published labels as prior annotations by mrbench-gold',
      bringsAnnotations: true,
    },
    {
      id: 'mrbench-v1',
      name: 'MRBench V1 JSON (with gold labels)',
      description: 'MRBench V1: each tutor reply an item, its published labels as prior annotations by mrbench-gold',
      bringsAnnotations: true,
    },
    { id: 'aitutor-evalkit', name: 'AITutor-EvalKit JSON', description: 'the replies of an AITutor-EvalKit predictions file' },
  ],
  annotations: [
    { id: 'concord', name: 'Concord JSONL', description: 'one {"item", "annotator", "labels"} per line' },
    { id: 'mrbench', name: 'MRBench V3 JSON (with gold labels)', description: "MRBench V3's published labels, by mrbench-gold" },
    { id: 'mrbench-v1', name: 'MRBench V1 JSON (with gold labels)', description: "MRBench V1's published labels, by mrbench-gold" },
  ],
  judge: [
    { id: 'concord', name: 'Concord JSONL', description: 'one judge verdict set per line (with its sample)' },
    {
      id: 'aitutor-evalkit',
      name: 'AITutor-EvalKit JSON',
      description: 'an AITutor-EvalKit predictions file; the judge name picks one of its judges',
      judgeInFile: true,
    },
  ],
} as const satisfies ImportFormatList;

/** The shipped catalog each public format's labels are written in. */
export const RUBRIC_FORMAT_CATALOG: Record<Exclude<(typeof RUBRIC_IMPORT_FORMATS.items)[number]['id'], 'concord'>, RubricCatalogName> = {
  mrbench: 'mrbench-v3',
  'mrbench-v1': 'mrbench-v1',
  'aitutor-evalkit': 'mrbench-v3',
};
