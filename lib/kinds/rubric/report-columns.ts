import type { AgreementScope } from '@/lib/server/analytics/dto';

/*
 * What a rubric study's reports say about its dimensions: a dimension with its labels in their order. Pure (types
 * only from the DTO module), so the dashboards read it in the browser.
 */

export const rubricAgreementScope: AgreementScope = {
  csv: 'dimension',
  noun: ['dimension', 'dimensions'],
  describe: [
    { id: 'name', csv: 'name', header: 'Dimension', value: 'text', get: (c) => c.name, note: (c) => (c.labels ?? []).join(' < ') },
    { id: 'labels', csv: 'labels', header: 'Labels', value: 'text', get: (c) => (c.labels ?? []).join(';'), csvOnly: true },
  ],
};
