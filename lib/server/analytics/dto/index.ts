/**
 * The data lib/server/analytics hands to pages, components, lib/query, lib/io and the CLI: plain types, and the
 * reports' names and tables as data (column specs: pure functions, no server code). One module per concern; this
 * one is what the rest imports (`@/lib/server/analytics/dto`).
 */
export type * from './common';
export type * from './pairwise';
export type * from './certify';
export type * from './rubric';
export type * from './annotators';
export type * from './active';
export { uncertaintySourceText } from './active';
export type * from './acceptance';
export * from './columns';
export * from './agreement-tables';
export * from './certify-tables';
export * from './bias-tables';
export * from './alignment-tables';
export * from './leaderboard-tables';
export * from './hybrid-tables';
export * from './reports';
