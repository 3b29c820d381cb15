import { ImportPanel } from '@/app/(app)/studies/[id]/_components/import-panel';
import { Section } from '@/components/study/section';
import { formatIdsOf } from '@/lib/kinds/import-formats';

/** What a lead may import into a rubric study until it is closed: earlier annotations and judge runs. */
export function RubricImports({ studyId }: { studyId: number }) {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Section title="Import prior annotations">
        <ImportPanel studyId={studyId} formats={formatIdsOf('rubric', 'annotations', { upload: true })} what="annotations" />
      </Section>
      <Section title="Import a judge run">
        <ImportPanel studyId={studyId} formats={formatIdsOf('rubric', 'judge', { upload: true })} what="judge" />
      </Section>
    </div>
  );
}
