import { describe, expect, it } from 'vitest';
import { enterActivates, isEditableTarget, routeShortcut, shouldIgnoreShortcut } from './keyboard';

const element = (tagName: string, extra: Record<string, unknown> = {}) =>
  ({ tagName, closest: () => null, ...extra }) as unknown as EventTarget;

const keyEvent = (target: EventTarget | null, extra: Record<string, unknown> = {}) => ({
  target,
  defaultPrevented: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...extra,
});

describe('isEditableTarget', () => {
  it.each([
    ['text input', element('INPUT', { type: 'text' }), true],
    ['input without a type', element('INPUT', { type: '' }), true],
    ['number input', element('INPUT', { type: 'number' }), true],
    ['textarea', element('TEXTAREA'), true],
    ['select', element('SELECT'), true],
    ['contenteditable div', element('DIV', { isContentEditable: true }), true],
    ['radio button', element('INPUT', { type: 'radio' }), false],
    ['checkbox', element('INPUT', { type: 'checkbox' }), false],
    ['button', element('BUTTON'), false],
    ['body', element('BODY'), false],
    ['no target', null, false],
  ])('%s', (_name, target, expected) => {
    expect(isEditableTarget(target)).toBe(expected);
  });
});

describe('shouldIgnoreShortcut', () => {
  it('handles a plain key on the page', () => {
    expect(shouldIgnoreShortcut(keyEvent(element('BODY')))).toBe(false);
  });

  it('handles shift, which `?` needs', () => {
    expect(shouldIgnoreShortcut(keyEvent(element('BODY'), { shiftKey: true }))).toBe(false);
  });

  it.each([
    ['typing in a textarea', keyEvent(element('TEXTAREA'))],
    ['ctrl', keyEvent(element('BODY'), { ctrlKey: true })],
    ['meta', keyEvent(element('BODY'), { metaKey: true })],
    ['alt', keyEvent(element('BODY'), { altKey: true })],
    ['IME composition', keyEvent(element('BODY'), { isComposing: true })],
    ['auto-repeat', keyEvent(element('BODY'), { repeat: true })],
    ['already handled', keyEvent(element('BODY'), { defaultPrevented: true })],
    ['inside a dialog', keyEvent(element('BUTTON', { closest: (s: string) => (s === 'dialog[open]' ? {} : null) }))],
  ])('ignores %s', (_name, event) => {
    expect(shouldIgnoreShortcut(event)).toBe(true);
  });
});

describe('shouldIgnoreShortcut with allowRepeat', () => {
  it('lets an auto-repeated key through when asked', () => {
    expect(shouldIgnoreShortcut(keyEvent(element('BODY'), { repeat: true }), { allowRepeat: true })).toBe(false);
  });

  it('still ignores typing and chords', () => {
    expect(shouldIgnoreShortcut(keyEvent(element('TEXTAREA'), { repeat: true }), { allowRepeat: true })).toBe(true);
    expect(shouldIgnoreShortcut(keyEvent(element('BODY'), { ctrlKey: true, repeat: true }), { allowRepeat: true })).toBe(true);
  });
});

describe('enterActivates', () => {
  const inside = (selector: string) => element('SPAN', { closest: (s: string) => (s.includes(selector) ? {} : null) });
  it.each([
    ['a button', inside('button'), true],
    ['a link', inside('a[href]'), true],
    ['a disclosure', inside('summary'), true],
    ['a plain element', element('DIV'), false],
    ['no target', null, false],
  ])('%s', (_name, target, expected) => {
    expect(enterActivates(target)).toBe(expected);
  });
});

describe('routeShortcut', () => {
  const press = (key: string, target: EventTarget | null, extra: Record<string, unknown> = {}) => ({ key, ...keyEvent(target, extra) });
  const dialogButton = element('BUTTON', { closest: (s: string) => (s === 'dialog[open]' ? {} : null) });
  // The focus still on a dialog that Escape has just closed: it matches `dialog`, no longer `dialog[open]`.
  const closedDialog = element('DIALOG', { closest: (s: string) => (s === 'dialog' ? {} : null) });
  const scrollBox = element('DIV', { closest: (s: string) => (s === '[data-scroll-region]' ? {} : null) });
  // The focus left on the body while a dialog is open elsewhere on the page.
  const openDialogPage = element('BODY', { ownerDocument: { querySelector: (s: string) => (s === 'dialog[open]' ? {} : null) } });

  it.each([
    // Shortcuts on the page.
    ['a letter on the page', press('v', element('BODY')), 'command'],
    ['Enter on the page', press('Enter', element('BODY')), 'command'],
    ['? with shift', press('?', element('BODY'), { shiftKey: true }), 'command'],
    ['a letter on a checkbox (not a text field)', press('v', element('INPUT', { type: 'checkbox' })), 'command'],
    ['a letter on a radio button', press('1', element('INPUT', { type: 'radio' })), 'command'],
    // Auto-repeat: only the keys that move between rows.
    ['held j', press('j', element('BODY'), { repeat: true }), 'command'],
    ['held ↓', press('ArrowDown', element('BODY'), { repeat: true }), 'command'],
    ['held Enter', press('Enter', element('BODY'), { repeat: true }), 'ignore'],
    ['held 1', press('1', element('BODY'), { repeat: true }), 'ignore'],
    ['held u', press('u', element('BODY'), { repeat: true }), 'ignore'],
    // Typing stays typing: text inputs, text areas, selects, editable content.
    ['a letter in a textarea', press('v', element('TEXTAREA')), 'ignore'],
    ['a letter in a text input', press('v', element('INPUT', { type: 'text' })), 'ignore'],
    ['a letter in a select', press('v', element('SELECT')), 'ignore'],
    ['a letter in editable content', press('v', element('DIV', { isContentEditable: true })), 'ignore'],
    ['Enter in a textarea', press('Enter', element('TEXTAREA')), 'ignore'],
    // IME composition, chords, handled presses, the open dialog.
    ['a key while an IME composes', press('k', element('BODY'), { isComposing: true }), 'ignore'],
    ['Enter that ends an IME composition in a field', press('Enter', element('TEXTAREA'), { isComposing: true, ctrlKey: true }), 'ignore'],
    ['Ctrl+r (reload)', press('r', element('BODY'), { ctrlKey: true }), 'ignore'],
    ['⌘+k', press('k', element('BODY'), { metaKey: true }), 'ignore'],
    ['Alt+1', press('1', element('BODY'), { altKey: true }), 'ignore'],
    ['a key already handled', press('j', element('BODY'), { defaultPrevented: true }), 'ignore'],
    ['a key inside the open dialog', press('j', dialogButton), 'ignore'],
    ['a key on the page while a dialog is open', press('v', openDialogPage), 'ignore'],
    ['a key on a dialog just closed, the focus not yet handed back', press('1', closedDialog), 'command'],
    ['Enter on the page while a dialog is open', press('Enter', openDialogPage), 'ignore'],
    ['Ctrl+Enter on the page while a dialog is open', press('Enter', openDialogPage, { ctrlKey: true }), 'ignore'],
    ['↓ in a box that scrolls', press('ArrowDown', scrollBox), 'ignore'],
    ['j in a box that scrolls', press('j', scrollBox), 'command'],
    // Submit chord, also from a text field.
    ['Ctrl+Enter on the page', press('Enter', element('BODY'), { ctrlKey: true }), 'submit'],
    ['Ctrl+Enter in a textarea', press('Enter', element('TEXTAREA'), { ctrlKey: true }), 'submit'],
    ['⌘+Enter in a textarea', press('Enter', element('TEXTAREA'), { metaKey: true }), 'submit'],
    ['held Ctrl+Enter', press('Enter', element('TEXTAREA'), { ctrlKey: true, repeat: true }), 'ignore'],
    ['Ctrl+Alt+Enter', press('Enter', element('BODY'), { ctrlKey: true, altKey: true }), 'ignore'],
    ['Ctrl+Enter inside the dialog', press('Enter', dialogButton, { ctrlKey: true }), 'ignore'],
    // Escape hands a text field's keys back.
    ['Escape in a textarea', press('Escape', element('TEXTAREA')), 'leave-field'],
    ['Escape on the page', press('Escape', element('BODY')), 'command'],
    ['Escape while an IME composes', press('Escape', element('TEXTAREA'), { isComposing: true }), 'ignore'],
  ])('%s', (_name, event, expected) => {
    expect(routeShortcut(event)).toBe(expected);
  });
});
