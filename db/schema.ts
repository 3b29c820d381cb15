/**
 * Every table of Concord, the one module the code and drizzle-kit (`drizzle.config.ts`) read the schema from. The
 * tables are declared by feature in `db/schema/`; a change to any of them is followed by `npx drizzle-kit generate`.
 */
export * from './schema/accounts';
export * from './schema/studies';
export * from './schema/annotations';
export * from './schema/adjudications';
export * from './schema/judges';
export * from './schema/rubric';
export * from './schema/packs';
export * from './schema/imports';
export * from './schema/audit';
export * from './schema/settings';
export * from './schema/gold';
export * from './schema/exclusions';
export * from './schema/active';
