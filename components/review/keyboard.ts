/** True when a key press belongs to a text field, so single-letter shortcuts must leave it alone. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const tag = target.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || target.isContentEditable;
}

export function newRequestId(): string {
  return crypto.randomUUID().replace(/-/g, '');
}
