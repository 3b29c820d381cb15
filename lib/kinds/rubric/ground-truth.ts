import type { RubricGroundTruthRow } from '@/lib/server/ground-truth/dto';
import { groundTruthColumns, type GroundTruthFacet } from '../facets/ground-truth';

/**
 * A rubric study's ground truth names a row by its item, the item's group and source (the lead sees who wrote the
 * reply) and the dimension; the label is given as decided and after the dimension's lenient folding.
 */
export const rubricGroundTruth: GroundTruthFacet = {
  columns: groundTruthColumns<RubricGroundTruthRow>([
    { csv: 'item', json: 'item', value: (r) => r.item },
    { csv: 'group', json: 'group', value: (r) => r.group },
    { csv: 'source', json: 'source', value: (r) => r.source },
    { csv: 'dimension', json: 'dimension', value: (r) => r.dimension },
    { csv: 'label', json: 'label', value: (r) => r.label },
    { csv: 'lenient_label', json: 'lenient_label', value: (r) => r.lenient },
  ]),
};
