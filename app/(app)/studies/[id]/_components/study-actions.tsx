'use client';

import { useState, useTransition } from 'react';
import { closeStudyAction, openStudyAction } from '../../actions';

export function StudyActions({ studyId, status }: { studyId: number; status: string }) {
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const run = (fn: () => Promise<{ ok: boolean; error?: string }>, confirmText: string) => {
    if (!window.confirm(confirmText)) return;
    start(async () => {
      const res = await fn();
      setError(res.ok ? null : (res.error ?? 'Failed.'));
    });
  };
  return (
    <div className="flex items-center gap-3">
      {status === 'draft' && (
        <button
          type="button"
          disabled={pending}
          onClick={() => run(() => openStudyAction(studyId), 'Open the study? Assignments are made now and items can no longer change.')}
          className="rounded-md bg-emerald-700 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-60"
        >
          Open study
        </button>
      )}
      {status === 'open' && (
        <button
          type="button"
          disabled={pending}
          onClick={() => run(() => closeStudyAction(studyId), 'Close the study? Reviewers can no longer submit or undo.')}
          className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm disabled:opacity-60"
        >
          Close study
        </button>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
