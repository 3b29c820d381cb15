'use client';

import { useEffect } from 'react';

/** Unexpected failures end here: a plain message and a retry, never the error itself (it is logged on the server). */
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div role="alert" className="max-w-md rounded-xl border border-red-200 bg-white p-8 text-center shadow-sm">
        <h1 className="text-xl font-semibold">Something went wrong</h1>
        <p className="mt-2 text-sm text-slate-600">
          The page could not be shown. Nothing you saved is lost. Try again; if it keeps happening, tell your study lead
          {error.digest ? ` (reference ${error.digest})` : ''}.
        </p>
        <button
          type="button"
          onClick={reset}
          className="mt-4 rounded-md bg-accent-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-accent-700"
        >
          Try again
        </button>
      </div>
    </main>
  );
}
