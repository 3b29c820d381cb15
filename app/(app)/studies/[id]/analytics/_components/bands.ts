import type { IntervalBand } from '@/components/charts/interval-bars';

/**
 * Landis & Koch (1977) benchmarks for κ-like coefficients, used here for α too. (Krippendorff's own convention is
 * stricter: α ≥ 0.800 reliable, 0.667–0.800 for tentative conclusions only.)
 */
export const LANDIS_KOCH: IntervalBand[] = [
  { from: -1, to: 0, label: 'poor', tone: 'danger' },
  { from: 0, to: 0.2, label: 'slight', tone: 'warning' },
  { from: 0.2, to: 0.4, label: 'fair', tone: 'neutral' },
  { from: 0.4, to: 0.6, label: 'moderate', tone: 'info' },
  { from: 0.6, to: 0.8, label: 'substantial', tone: 'accent' },
  { from: 0.8, to: 1, label: 'almost perfect', tone: 'success' },
];

/** The Landis & Koch band a value falls in. */
export function landisKoch(v: number): string {
  if (v < 0) return 'poor';
  if (v <= 0.2) return 'slight';
  if (v <= 0.4) return 'fair';
  if (v <= 0.6) return 'moderate';
  if (v <= 0.8) return 'substantial';
  return 'almost perfect';
}

/** From just below zero up to 1, unless some value or bound is far below zero. */
export function coefficientDomain(values: (number | null)[]): [number, number] {
  const lowest = Math.min(0, ...values.filter((v): v is number => v !== null));
  return lowest < -0.2 ? [-1, 1] : [-0.2, 1];
}
