/**
 * What each kind adds to the new-study form (the rubric's dimensions). Kept apart from `registry.ts` because the form
 * is a client component: this module pulls in only the kinds' client fields, not their server-rendered panels.
 */
import { createElement, type ReactNode } from 'react';
import type { FormState } from '@/app/(app)/studies/actions';
import type { StudyKind } from '@/lib/validation/labels';
import { RubricDimensionsField } from './rubric/new-study-fields';

type NewStudyFields = (props: { state: FormState }) => ReactNode;

const NEW_STUDY_FIELDS: Partial<Record<StudyKind, NewStudyFields>> = {
  rubric: RubricDimensionsField,
};

/** The fields the chosen kind adds to the form; nothing when its name, guidelines and numbers are all it needs. */
export function newStudyFields(kind: string, props: { state: FormState }): ReactNode {
  const fields = Object.hasOwn(NEW_STUDY_FIELDS, kind) ? NEW_STUDY_FIELDS[kind as StudyKind] : undefined;
  // An element, not a component handed to the form: the form renders one stable component per kind.
  return fields ? createElement(fields, props) : null;
}
