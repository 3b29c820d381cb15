import { describe, expect, it } from 'vitest';
import { safeNextPath } from './next-path';

describe('safeNextPath', () => {
  it('keeps a path of this site, with its query and fragment', () => {
    expect(safeNextPath('/studies/3/review')).toBe('/studies/3/review');
    expect(safeNextPath('/studies?q=kmp&kind=rubric#top')).toBe('/studies?q=kmp&kind=rubric#top');
    expect(safeNextPath('/')).toBe('/');
  });

  it('refuses anything that a browser could follow to another origin', () => {
    for (const next of [
      '/\t/evil.example/x', // the browser drops the tab: //evil.example/x
      '/\n/evil.example',
      '/\r/evil.example',
      '\t//evil.example',
      '//evil.example/x',
      '/\\evil.example',
      '\\\\evil.example',
      '/.//evil.example/x', // resolves to the path //evil.example/x
      '/%2e//evil.example',
      'https://evil.example/x',
      'javascript:alert(1)',
      'evil.example',
      ' /studies',
      '/studies\u0000',
      '/studies\u007f',
    ]) {
      const kept = safeNextPath(next);
      expect(kept, JSON.stringify(next)).toBe('/');
    }
  });

  it('falls back to the home page for what is not text', () => {
    expect(safeNextPath(undefined)).toBe('/');
    expect(safeNextPath(null)).toBe('/');
    expect(safeNextPath(['/studies'])).toBe('/');
  });
});
