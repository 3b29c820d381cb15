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
  ownerDocument?: { querySelector?: (selector: string) => unknown } | null;
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

function closestOf(target: EventTarget | null, selector: string): boolean {
  const element = target as TargetLike | null;
  return typeof element?.closest === 'function' && element.closest(selector) != null;
}

/**
 * True while a dialog is open on the page, wherever the key press lands: an open dialog owns the keyboard until it
 * closes. Not only presses inside it: a press that reaches the page while a dialog is open (focus left on the body,
 * a dialog still closing) must not act on the item behind it either.
 */
export function inDialog(target: EventTarget | null): boolean {
  // An open one only: a dialog just closed (Escape) can still hold the focus for a moment, and owns nothing then.
  if (closestOf(target, 'dialog[open]')) return true;
  const doc = (target as TargetLike | null)?.ownerDocument;
  return typeof doc?.querySelector === 'function' && doc.querySelector('dialog[open]') != null;
}

/** True when Enter on this element already does something of its own (press a button, follow a link, open a disclosure). */
export function enterActivates(target: EventTarget | null): boolean {
  return closestOf(target, 'button, a[href], summary, select, textarea, [role="button"]');
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
 * shortcut, something already handled it, or a dialog is open (an open dialog
 * owns the keyboard until it closes, see inDialog). Shift is allowed because
 * `?` needs it on most layouts. Auto-repeated presses are ignored unless
 * `allowRepeat`: a held Enter must not submit item after item.
 */
export function shouldIgnoreShortcut(event: KeyEventLike, { allowRepeat = false } = {}): boolean {
  if (event.defaultPrevented || event.isComposing || (event.repeat && !allowRepeat)) return true;
  if (event.ctrlKey || event.metaKey || event.altKey) return true;
  if (isEditableTarget(event.target)) return true;
  return inDialog(event.target);
}

/** Keys that move between rows: holding one walks down the list, so they may auto-repeat. */
export const MOVE_KEYS: ReadonlySet<string> = new Set(['j', 'k', 'ArrowDown', 'ArrowUp']);

/**
 * What a review screen does with a key press:
 * - `submit`: Ctrl+Enter or ⌘+Enter, which submits even from inside a text field (never auto-repeated, never from a dialog);
 * - `leave-field`: Escape in a text field, which hands the keys back to the shortcuts;
 * - `command`: a single-key shortcut (see shouldIgnoreShortcut; only MOVE_KEYS may auto-repeat, and ↑/↓ inside a
 *   box that scrolls on its own, `[data-scroll-region]`, scroll that box instead);
 * - `ignore`: anything else, left to the browser, the field or the dialog.
 */
export type ShortcutRoute = 'submit' | 'leave-field' | 'command' | 'ignore';

export function routeShortcut(event: KeyEventLike & { key: string }): ShortcutRoute {
  if (event.defaultPrevented || event.isComposing) return 'ignore';
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.altKey) {
    return event.repeat || inDialog(event.target) ? 'ignore' : 'submit';
  }
  if (event.key === 'Escape' && isEditableTarget(event.target) && !inDialog(event.target)) return 'leave-field';
  if (shouldIgnoreShortcut(event, { allowRepeat: MOVE_KEYS.has(event.key) })) return 'ignore';
  if ((event.key === 'ArrowUp' || event.key === 'ArrowDown') && closestOf(event.target, '[data-scroll-region]')) return 'ignore';
  return 'command';
}
