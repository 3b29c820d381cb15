// SVG attributes and inline styles need literal colours, not Tailwind classes.
// The first entry matches the app's accent-600; the rest are Tailwind 600s,
// ordered so neighbouring series stay distinguishable.
export const SERIES_COLORS = ['oklch(0.51 0.2 265)', '#0d9488', '#d97706', '#e11d48', '#0284c7', '#7c3aed', '#65a30d', '#475569'] as const;

export type ChartTone = 'neutral' | 'accent' | 'success' | 'warning' | 'danger' | 'info';

export const TONE_FILL: Record<ChartTone, string> = {
  neutral: '#94a3b8',
  accent: 'oklch(0.51 0.2 265)',
  success: '#059669',
  warning: '#d97706',
  danger: '#e11d48',
  info: '#0284c7',
};

/** Pale backgrounds for interpretation bands behind data. */
export const TONE_BAND: Record<ChartTone, string> = {
  neutral: '#f1f5f9',
  accent: 'oklch(0.97 0.02 265)',
  success: '#ecfdf5',
  warning: '#fffbeb',
  danger: '#fff1f2',
  info: '#f0f9ff',
};
