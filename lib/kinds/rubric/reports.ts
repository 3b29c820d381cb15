import type { ReportsFacet } from '../facets/reports';

export const rubricReports = {
  byRole: {
    agreement: 'rubric-agreement',
    alignment: 'rubric-alignment',
    leaderboard: 'rubric-leaderboard',
    hybrid: 'rubric-hybrid',
    certify: 'rubric-certify',
    bias: 'rubric-bias',
    gold: 'gold',
    annotators: 'annotators',
  },
} satisfies ReportsFacet;
