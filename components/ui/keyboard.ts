/**
 * Guards for single-key shortcuts (j, k, 1, 2, 3, v, ?), shared by every page
 * that listens on the window so they all ignore the same key presses.
 */

// Input types that take text; a checkbox or radio does not, so shortcuts still work there.
const TEXT_INPUT_TYPES = new Set([
  '',
  'text',
  'search',
  'email',
  'url',
  'tel',
  'password',
  'number',
  'date',
  'datetime-local',
  'month',
  'week',
  'time',
]);

type TargetLike = {
  tagName?: string;
  type?: string;
  isContentEditable?: boolean;
  closest?: (selector: string) => unknown;
};

/** True when a key press at `target` is typing, not a command. */
export function isEditableTarget(target: EventTarget | null): boolean {
  const element = target as TargetLike | null;
  if (!element || typeof element.tagName !== 'string') return false;
  if (element.isContentEditable) return true;
  const tag = element.tagName.toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') return TEXT_INPUT_TYPES.has((element.type ?? '').toLowerCase());
  return false;
}

type KeyEventLike = {
  target: EventTarget | null;
  defaultPrevented: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  isComposing?: boolean;
  repeat?: boolean;
};

/**
 * True when a page-level shortcut handler should leave this key press alone:
 * the user is typing, an IME is composing, a modifier makes it a browser or OS
 * shortcut, something already handled it, or it comes from inside a dialog
 * (an open dialog owns the keyboard until it closes). Shift is allowed because
 * `?` needs it on most layouts. Auto-repeated presses are ignored: a held
 * Enter must not submit item after item.
 */
export function shouldIgnoreShortcut(event: KeyEventLike): boolean {
  if (event.defaultPrevented || event.isComposing || event.repeat) return true;
  if (event.ctrlKey || event.metaKey || event.altKey) return true;
  if (isEditableTarget(event.target)) return true;
  const target = event.target as TargetLike | null;
  return typeof target?.closest === 'function' && target.closest('dialog') != null;
}
