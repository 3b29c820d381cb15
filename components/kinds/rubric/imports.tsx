import { ImportPanel } from '@/app/(app)/studies/[id]/_components/import-panel';
import { Section } from '@/components/study/section';
import { ANNOTATION_FORMATS, JUDGE_IMPORT_FORMATS } from '@/lib/validation/studies';

/** What a lead may import into a rubric study until it is closed: earlier annotations and judge runs. */
export function RubricImports({ studyId }: { studyId: number }) {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Section title="Import prior annotations">
        <ImportPanel studyId={studyId} formats={ANNOTATION_FORMATS.rubric} what="annotations" />
      </Section>
      <Section title="Import a judge run">
        <ImportPanel studyId={studyId} formats={JUDGE_IMPORT_FORMATS.rubric} what="judge" />
      </Section>
    </div>
  );
}
