/** One test per reference vector in `test/fixtures/stats/vectors-2.json` (STATS-2.md §9); the harness is `test/stats-vectors.ts`. */
import { describeVectors } from '@/test/stats-vectors';
import { computeVector2, type Vector2 } from './vectors-2.dispatch';

describeVectors<Vector2>({
  title: 'reference vectors, part 2 (STATS-2.md §9)',
  file: 'vectors-2.json',
  counts: {
    rank_correlation: 13,
    ppi_mean: 11,
    cs_prpl_eb: 10,
    alt_test: 8,
    position_bias_judge: 7,
    position_bias_human: 6,
    length_bias: 10,
  },
  compute: computeVector2,
});
