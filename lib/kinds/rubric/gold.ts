import * as goldQ from '@/db/queries/gold';
import type { GoldFacet } from '../facets/gold';
import { rubricCatalog } from './catalog';

/** A rubric gold label is a dimension's label by name; reviewers' answers are stored as codes and named here. */
export const rubricGold: GoldFacet = {
  units: (study) => rubricCatalog(study).map((d) => ({ id: d.id, labels: d.labels })),
  answers: (db, study) => {
    const catalog = rubricCatalog(study);
    return goldQ.rubricGoldAnswers(db, study.id).flatMap((r) => {
      const d = catalog[Number(r.unit)];
      const label = d?.labels[Number(r.label)];
      return d && label !== undefined ? [{ itemId: r.itemId, userId: r.userId, unit: d.id, label }] : [];
    });
  },
};
