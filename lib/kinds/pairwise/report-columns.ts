import type {
  AgreementScope,
  CertifyReportDto,
  CertifyScope,
  HybridPlanRow,
  HybridReportDto,
  HybridScope,
  PlainColumnSpec,
} from '@/lib/server/analytics/dto';

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

const about = (id: string, header: string): PlainColumnSpec<HybridPlanRow> => ({
  id,
  csv: id,
  header,
  value: 'text',
  get: (p) => p.about[id] as string | number,
});

/** A pairwise hybrid report holds one plan: a judge run on one criterion for one target. */
export const pairwiseHybridScope: HybridScope<HybridReportDto> = {
  plans: (r) => [{ ...r, about: { judge: r.judge, criterion: r.criterion, target: r.target } }],
  planKeys: [about('judge', 'Judge'), about('criterion', 'Criterion'), about('target', 'Target')],
  classKeys: [about('judge', 'Judge'), about('criterion', 'Criterion')],
  planTable: 'plan',
};

/** A pairwise certification adds nothing after the judge's name. */
export const pairwiseCertifyScope: CertifyScope<CertifyReportDto> = { extra: [] };
