// The default criteria catalog is the pairwise kind's (lib/kinds/pairwise/default-criteria.ts); imports keep this path.
export * from '@/lib/kinds/pairwise/default-criteria';
