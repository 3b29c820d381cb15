'use client';

import { FlowSteps } from '@/components/flow/flow-view';
import type { FlowItem } from '@/lib/validation/flow';
import type { FlowWarning } from '@/lib/validation/flow-warnings';

/** A flow's steps, read-only: rendered in the browser because each step listens for clicks (focus on the review screen). */
export function FlowStepsView({ flow, warnings }: { flow: FlowItem; warnings: FlowWarning[] }) {
  return <FlowSteps flow={flow} warnings={warnings} focus={-1} cutAfter={null} />;
}
