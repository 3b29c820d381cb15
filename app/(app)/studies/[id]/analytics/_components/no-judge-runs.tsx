import { Link } from '@/components/ui/link';
import { EmptyState } from '@/components/ui/empty-state';

export function NoJudgeRuns({ studyId }: { studyId: number }) {
  return (
    <EmptyState
      title="No judge run yet"
      description="Import an LLM judge’s labels for this study (npx concord import judge --study … FILE), then come back to compare them with the ground truth."
      action={
        <Link href={`/studies/${studyId}`} className="text-sm text-accent-700 hover:underline">
          Back to the study
        </Link>
      }
    />
  );
}
