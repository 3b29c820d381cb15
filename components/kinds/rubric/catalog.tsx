import { Section } from '@/components/study/section';
import type { StudyDto } from '@/lib/server/studies/dto';

/** A draft rubric study's dimensions: each one's labels (worst first), desired label and lenient mapping. */
export function RubricCatalog({ study }: { study: StudyDto }) {
  if (!study.dimensions) return null;
  return (
    <Section title={`Dimensions (${study.dimensions.length})`}>
      <ul className="max-h-64 space-y-1 overflow-auto text-sm" data-testid="study-dimensions">
        {study.dimensions.map((d) => (
          <li key={d.id}>
            <span className="font-medium">{d.name}</span>{' '}
            <span className="text-slate-500">
              — {d.labels.join(' / ')}; desired {d.desired}
              {d.lenient && Object.keys(d.lenient).length > 0
                ? `; lenient ${Object.entries(d.lenient)
                    .map(([from, to]) => `${from} → ${to}`)
                    .join(', ')}`
                : ''}
            </span>
          </li>
        ))}
      </ul>
      <p className="mt-2 text-xs text-slate-500">The catalog is fixed once the study exists.</p>
    </Section>
  );
}
