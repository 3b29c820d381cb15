'use client';

import { useState, useTransition } from 'react';

/** What a form's server action answers (CONVENTIONS: `{ ok: true } | { ok: false, error, fieldErrors }`). */
export type ActionResult = { ok: true } | { ok: false; error: string; fieldErrors?: Record<string, string> };

/**
 * Runs a form's server action in a transition and keeps what the screen says about it: one message (success or the
 * error) and the messages per field, cleared on success. `after` runs only on success (reset a form, leave edit mode).
 */
export function useActionFeedback() {
  const [pending, start] = useTransition();
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  const run = (fn: () => Promise<ActionResult>, success: string, after?: () => void) =>
    start(async () => {
      const res = await fn();
      if (res.ok) {
        setMessage({ tone: 'ok', text: success });
        setFieldErrors({});
        after?.();
      } else {
        setMessage({ tone: 'error', text: res.error });
        setFieldErrors(res.fieldErrors ?? {});
      }
    });

  return { pending, message, fieldErrors, run };
}
