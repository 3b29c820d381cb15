import type { ReportsFacet } from '../facets/reports';

export const pairwiseReports = {
  byRole: {
    agreement: 'agreement',
    alignment: 'alignment',
    leaderboard: 'leaderboard',
    hybrid: 'hybrid',
    certify: 'certify',
    bias: 'bias',
    gold: 'gold',
    annotators: 'annotators',
  },
} satisfies ReportsFacet;
