import { mulberry32 } from '@/lib/assign/random';
import type { Label } from '@/lib/validation/labels';
import type { ScreenChoice } from '@/lib/server/review/dto';

/**
 * Labels are stored from reply a's side. On screen a person sees "Response 1" and "Response 2"; when their
 * display order is swapped, Response 1 is reply b.
 */
export function toCanonical(choice: ScreenChoice, swapped: boolean): Label {
  if (choice === 'tie') return 'tie';
  return (choice === 'r1') !== swapped ? 'win' : 'lose';
}

export function toScreen(label: Label, swapped: boolean): ScreenChoice {
  if (label === 'tie') return 'tie';
  return (label === 'win') !== swapped ? 'r1' : 'r2';
}

/** A fixed display order for an adjudicator, drawn from the study seed, the item and the person. */
export function adjudicatorSwapped(seed: number, itemId: number, userId: number): boolean {
  return mulberry32((seed ^ Math.imul(itemId, 0x9e3779b1) ^ Math.imul(userId, 0x85ebca6b)) >>> 0)() < 0.5;
}
