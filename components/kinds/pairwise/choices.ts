import type { ScreenChoice } from '@/lib/server/review/dto';

export type { ScreenChoice };

/** The three answers to "which response is better here?", in screen order, with their keys. */
export const CHOICES: readonly { value: ScreenChoice; key: '1' | '2' | '3'; label: string }[] = [
  { value: 'r1', key: '1', label: 'Response 1 better' },
  { value: 'tie', key: '2', label: 'Tie' },
  { value: 'r2', key: '3', label: 'Response 2 better' },
];

export const CHOICE_LABEL: Record<ScreenChoice, string> = { r1: 'Response 1 better', tie: 'Tie', r2: 'Response 2 better' };

const BY_CODE: Record<string, ScreenChoice> = { Digit1: 'r1', Digit2: 'tie', Digit3: 'r2', Numpad1: 'r1', Numpad2: 'tie', Numpad3: 'r2' };

/**
 * The choice a key press stands for, or null. The physical key counts too, so the digit row works on layouts
 * where it types "&", "é", "\"" without Shift (AZERTY).
 */
export function choiceForKey(event: Pick<KeyboardEvent, 'key' | 'code'>): ScreenChoice | null {
  return CHOICES.find((c) => c.key === event.key)?.value ?? BY_CODE[event.code] ?? null;
}
