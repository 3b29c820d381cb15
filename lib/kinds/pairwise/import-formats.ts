import type { ImportFormatList } from '../facets/import-formats';

/** What a pairwise study imports (pure: the browser reads it too); the readers are in `imports.ts`. */
export const PAIRWISE_IMPORT_FORMATS = {
  items: [
    { id: 'concord', name: 'Concord JSONL', description: 'one pairwise item per line' },
    {
      id: 'bridge',
      name: 'Bridge',
      description: "Bridge's dataset folder (test.json and responses/), two of its replies per item",
      commandLineOnly:
        'Bridge is read from its dataset directory, which an upload cannot carry: import it with the command line (`concord import items --format bridge`).',
    },
    {
      id: 'pandalm',
      name: 'PandaLM JSON',
      description: "PandaLM's testset-v1.json, with its three annotators' labels as prior annotations",
      bringsAnnotations: true,
    },
  ],
  annotations: [
    { id: 'concord', name: 'Concord JSONL', description: 'one {"item", "annotator", "labels"} per line' },
    { id: 'pandalm', name: 'PandaLM JSON', description: "the three annotators of PandaLM's testset-v1.json" },
  ],
  judge: [
    { id: 'concord', name: 'Concord JSONL', description: 'one judge verdict per line' },
    { id: 'pandalm', name: 'PandaLM JSON', description: "a PandaLM judge's output file (the run is named after the file)" },
  ],
} as const satisfies ImportFormatList;
