import type {
  AgreementScope,
  CertifyScope,
  HybridPlanDto,
  HybridPlanRow,
  HybridScope,
  PlainColumnSpec,
  RubricCertifyReportDto,
  RubricHybridReportDto,
} from '@/lib/server/analytics/dto';

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

const about = (id: string, header: string): PlainColumnSpec<HybridPlanRow> => ({
  id,
  csv: id,
  header,
  value: 'text',
  get: (p) => p.about[id] as string | number,
});

const HEAD = [
  about('judge', 'Judge'),
  about('sample', 'Sample'),
  about('target', 'Target'),
  // The plan of every tutor together is `all` in the CSV, and says so on the screen.
  { ...about('tutor', 'Tutor'), display: (p: HybridPlanRow) => (p.about.tutor === 'all' ? 'All tutors' : String(p.about.tutor)) },
  about('dimension', 'Dimension'),
  about('scoring', 'Scoring'),
];

/**
 * A rubric hybrid report holds the plan of its dimension for every tutor together, each tutor's own plan, and the
 * plan of every other dimension.
 */
export const rubricHybridScope: HybridScope<RubricHybridReportDto> = {
  plans: (r) => {
    const plan = (p: HybridPlanDto, tutor: string, dimension: string, lenient: boolean): HybridPlanRow => ({
      ...p,
      about: { judge: r.judge, sample: r.sample, target: r.target, tutor, dimension, scoring: lenient ? 'lenient' : 'strict' },
    });
    return [
      plan(r, 'all', r.criterion, r.lenient),
      ...r.byModel.map((m) => plan(m, m.model, r.criterion, r.lenient)),
      ...r.byCriterion.filter((c) => c.criterion !== r.criterion).map((c) => plan(c, 'all', c.criterion, c.lenient)),
    ];
  },
  planKeys: HEAD,
  classKeys: HEAD,
  planTable: 'plans',
};

/** A rubric certification reads one sample of the judge run, strictly or with labels folded: every row says which. */
export const rubricCertifyScope: CertifyScope<RubricCertifyReportDto> = {
  extra: [
    { id: 'sample', csv: 'sample', header: 'Sample', value: 'count', get: (r) => r.sample },
    { id: 'lenient', csv: 'lenient', header: 'Lenient', value: 'text', get: (r) => r.lenient },
  ],
};
