/**
 * The data lib/server/analytics hands to pages, components, lib/query, lib/io and the CLI: plain types, no server
 * code. One module per concern; this one is what the rest imports (`@/lib/server/analytics/dto`).
 */
export type * from './common';
export type * from './pairwise';
export type * from './certify';
export type * from './rubric';
