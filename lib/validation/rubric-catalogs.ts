// The shipped dimension catalogs are the rubric kind's (lib/kinds/rubric/catalogs.ts); imports keep this path.
export * from '@/lib/kinds/rubric/catalogs';
