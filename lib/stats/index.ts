/**
 * Public API of Concord's statistics core: pure functions, no I/O. Inputs carry the declared
 * label set (as codes into it, count tables, or labels plus the set); undefined values are
 * `null` with a reason. Formulas and decisions: `test/fixtures/stats/STATS.md`, `STATS-2.md`, `STATS-3.md`.
 */
export * from './types';
export * from './encode';
export * from './agreement';
export * from './multirater';
export * from './krippendorff';
export * from './classification';
export * from './intervals';
export * from './random';
export * from './bootstrap';
export * from './winrate';
export * from './leaderboard';
export * from './alignment';
export * from './ratings';
export * from './hybrid';
export * from './certification-types';
export * from './rank';
export * from './ppi';
export * from './confidence-sequence';
export * from './alt-test';
export * from './position-bias';
export * from './length-bias';
export * from './stats3-types';
export * from './digamma';
export * from './crowd-annotations';
export * from './dawid-skene';
export * from './mace';
export * from './binomial-bound';
export * from './error-bounded-acceptance';
export * from './calibration';
export * from './active-inference';
export * from './annotator-quality';
export * from './straight-lining';
export * from './acceptance-strata';
