import 'server-only';
import * as z from 'zod';
import { getDb } from '@/db/client';
import type { Actor } from '../actor';
import { parseInput } from '../parse';
import { agreementByCriterion } from './agreement';
import { type CriterionInfo, bootstrapInfo, bootstrapSeed, replicatesSchema } from './data';
import type { RubricAgreementReportDto } from './dto';
import { analysableRubricStudy, loadRubricFrame, loadRubricHumanLabels, dimensionDtos } from './rubric-data';

/*
 * Agreement of a rubric study's reviewers per dimension, before adjudication (the agreement code of pairwise studies
 * on the dimensions' own label sets and orders).
 */

/**
 * Inter-annotator agreement per dimension before adjudication, exactly as for pairwise criteria: percent
 * agreement, Fleiss' κ, Krippendorff's α nominal and ordinal (on the dimension's order), Cohen's κ unweighted,
 * linear and quadratic for every pair of reviewers, item-bootstrap intervals. Leads and admins only.
 */
export function rubricAgreementReport(actor: Actor, studyId: number, opts: { bootstrap?: number | string } = {}): RubricAgreementReportDto {
  const db = getDb();
  const study = analysableRubricStudy(db, actor, studyId);
  const { bootstrap: replicates } = parseInput(z.object({ bootstrap: replicatesSchema }), opts);
  const frame = loadRubricFrame(db, study);
  const human = loadRubricHumanLabels(db, frame);
  const seed = bootstrapSeed(study.seed, 'agreement');
  const infos: CriterionInfo[] = frame.dimensions.map((d) => ({ id: d.id, name: d.name, level: 'general' }));
  const core = agreementByCriterion(
    human,
    frame.n,
    infos,
    frame.dimensions.map((d) => d.labels.length),
    replicates,
    seed,
  );
  return {
    studyId,
    kind: 'rubric',
    bootstrap: bootstrapInfo(replicates, seed),
    dimensions: dimensionDtos(frame),
    criteria: core.criteria.map((c, d) => ({ ...c, labels: [...frame.dimensions[d].labels] })),
    macro: core.macro,
  };
}
