import type { AgreementScope } from '@/lib/server/analytics/dto';

/*
 * What a pairwise study's reports say about its criteria: a criterion of the catalog, with its level and principle.
 * Pure (types only from the DTO module), so the dashboards read it in the browser.
 */

const LEVEL: Record<string, string> = { general: 'General', principle: 'Principle', overall: 'Overall' };

export const pairwiseAgreementScope: AgreementScope = {
  csv: 'criterion',
  noun: ['criterion', 'criteria'],
  describe: [
    {
      id: 'name',
      csv: 'name',
      header: 'Criterion',
      value: 'text',
      get: (c) => c.name,
      // The overall criterion is its own level: naming it twice says nothing.
      note: (c) => (c.level === 'overall' ? null : `${LEVEL[c.level]}${c.principle ? ` · ${c.principle}` : ''}`),
    },
    { id: 'level', csv: 'level', header: 'Level', value: 'text', get: (c) => c.level, csvOnly: true },
    { id: 'principle', csv: 'principle', header: 'Principle', value: 'text', get: (c) => c.principle ?? null, csvOnly: true },
  ],
};
