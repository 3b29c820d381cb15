/**
 * Enumerations shared by the database schema, the server and the client.
 * Tuples (`as const`) so that zod enums, Drizzle `text({ enum })` columns and
 * TypeScript unions all derive from one list.
 */

import { PAIRWISE_LABELS } from '@/lib/kinds/pairwise/labels';

/** Pairwise labels, always from reply `a`'s side, in ordinal order (lose < tie < win): the pairwise kind's set. */
export const LABELS = PAIRWISE_LABELS;
export type Label = (typeof LABELS)[number];

export const SPEAKERS = ['tutor', 'student'] as const;
export type Speaker = (typeof SPEAKERS)[number];

/** KMP-Bench's six pedagogical principles; a study may replace this list. */
export const DEFAULT_PRINCIPLES = ['Challenge', 'Explanation', 'Modelling', 'Practice', 'Questioning', 'Feedback'] as const;
export type DefaultPrinciple = (typeof DEFAULT_PRINCIPLES)[number];

export const FLOW_DECISIONS = ['verify', 'truncate', 'discard'] as const;
export type FlowDecisionKind = (typeof FLOW_DECISIONS)[number];

export const DISCARD_REASONS = ['hallucinated_material', 'illogical_sequence', 'incorrect_math', 'off_topic', 'other'] as const;
export type DiscardReason = (typeof DISCARD_REASONS)[number];

export const MATERIAL_KINDS = ['follow_up', 'error_analysis', 'similar_problem', 'clarification'] as const;
export type MaterialKind = (typeof MATERIAL_KINDS)[number];

export const STUDY_KINDS = ['flow_review', 'pairwise', 'rubric'] as const;
export type StudyKind = (typeof STUDY_KINDS)[number];

export const ROLES = ['admin', 'lead', 'annotator'] as const;
export type Role = (typeof ROLES)[number];
