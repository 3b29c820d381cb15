import { describe, expect, it } from 'vitest';
import { isEditableTarget, shouldIgnoreShortcut } from './keyboard';

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
    ['inside a dialog', keyEvent(element('BUTTON', { closest: (s: string) => (s === 'dialog' ? {} : null) }))],
  ])('ignores %s', (_name, event) => {
    expect(shouldIgnoreShortcut(event)).toBe(true);
  });
});
