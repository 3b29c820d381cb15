/** One test per reference vector in `test/fixtures/stats/vectors-3.json` (STATS-3.md §9); the harness is `test/stats-vectors.ts`. */
import { describeVectors } from '@/test/stats-vectors';
import { computeVector3, type Vector3 } from './vectors-3.dispatch';

describeVectors<Vector3>({
  title: 'reference vectors, part 3 (STATS-3.md §9)',
  file: 'vectors-3.json',
  counts: {
    dawid_skene: 11,
    mace: 8,
    annotator_quality: 5,
    calibration: 11,
    active_mean: 8,
    active_mean_tau_tuning: 2,
    binomial_error_bound: 7,
    error_bounded_acceptance: 9,
    digamma: 1,
  },
  compute: computeVector3,
});
