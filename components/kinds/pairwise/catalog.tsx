import { Section } from '@/components/study/section';
import type { StudyDto } from '@/lib/server/studies/dto';
import { CriteriaUpload } from './criteria-upload';

/** A draft pairwise study's criteria, with the upload that replaces them (the catalog is fixed once it opens). */
export function PairwiseCatalog({ study }: { study: StudyDto }) {
  return (
    <Section title={`Criteria (${study.criteria.length} + overall)`}>
      <ul className="mb-3 max-h-64 space-y-1 overflow-auto text-sm">
        {study.criteria.map((c) => (
          <li key={c.id}>
            <span className="font-medium">{c.name}</span>{' '}
            <span className="text-slate-500">
              ({c.level === 'principle' ? c.principle : 'general'}) — {c.description}
            </span>
          </li>
        ))}
      </ul>
      <CriteriaUpload studyId={study.id} />
    </Section>
  );
}
