import type { GroundTruthRow } from '@/lib/server/ground-truth/dto';
import { groundTruthColumns, type GroundTruthFacet } from '../facets/ground-truth';

/** A pairwise study's ground truth names a row by its item and criterion (`overall` included); labels lose/tie/win. */
export const pairwiseGroundTruth: GroundTruthFacet = {
  columns: groundTruthColumns<GroundTruthRow>([
    { csv: 'item', json: 'item', value: (r) => r.item },
    { csv: 'criterion', json: 'criterion', value: (r) => r.criterion },
    { csv: 'label', json: 'label', value: (r) => r.label },
  ]),
};
