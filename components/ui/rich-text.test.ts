import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { absurdLength, MAX_SIZE_EM } from './katex-layout';
import { RichText } from './rich-text';

const html = (text: string) => renderToStaticMarkup(createElement(RichText, { text }));
/** Every `name: <n>em` in the rendered styles. */
const lengths = (markup: string) =>
  [...markup.matchAll(/([a-z-]+):(-?\d+(?:\.\d+)?)em/g)].map((m) => ({ name: m[1], value: Number(m[2]) }));

describe('RichText keeps imported TeX inside its own box', () => {
  it.each([
    ['\\kern{-400em}', '$\\kern{-400em}\\text{this is the expert reference}$'],
    ['\\hspace', '$\\hspace{-300em}\\text{this is the expert reference}$'],
    ['\\hskip', '$a\\hskip-300em b$'],
    ['\\mkern', '$a\\mkern-3000mu b$'],
    ['\\mskip', '$a\\mskip-360mu b$'],
    ['\\raisebox', '$\\raisebox{-60em}{this is the expert reference}$'],
    ['\\rule raised', '$\\rule[-300em]{1em}{1em}$'],
    ['a moderate kern', '$\\kern{-20em}\\text{this is the expert reference}$'],
    ['\\text{\\kern}', '$\\text{\\kern{-21em}this is the expert reference}$'],
    ['display math', '$$\\kern{-400em}\\text{this is the expert reference}$$'],
  ])('shows a formula with an absurd layout (%s) as its TeX source, not drawn', (_, text) => {
    const markup = html(text);
    expect(markup).toContain('class="katex-refused"');
    expect(markup).not.toContain('class="katex-html"');
    expect(markup).toContain('this is the expert reference'.slice(0, text.includes('expert') ? 28 : 0));
    for (const { name, value } of lengths(markup)) expect(Math.abs(value), name).toBeLessThanOrEqual(2 * MAX_SIZE_EM);
  });

  it.each(['\\llap', '\\rlap', '\\clap', '\\mathllap', '\\mathrlap', '\\mathclap'])(
    'draws %s as an ordinary box that takes its own room',
    (cmd) => {
      const markup = html(`$${cmd}{\\text{this is the expert reference}}$`);
      expect(markup).toContain('class="katex-html"');
      expect(markup).not.toMatch(/class="[^"]*\b(llap|rlap|clap)\b/);
      expect(markup).toContain('this is the expert reference');
    },
  );

  it('caps written sizes at maxSize and keeps ordinary math drawn', () => {
    const markup = html('$\\rule{500em}{500em}$ and $\\frac{1}{2} + \\sqrt{x^2}\\!\\quad\\kern{-0.5em} y$');
    expect(markup).not.toContain('katex-refused');
    expect(Math.max(...lengths(markup).map((l) => l.value))).toBeLessThanOrEqual(MAX_SIZE_EM);
  });

  it('does not let one text redefine commands for the next', () => {
    expect(html('$\\gdef\\frac#1#2{\\kern{-30em}#1}\\frac{1}{2}$')).toContain('katex-refused');
    const next = html('$\\frac{1}{2}$');
    expect(next).toContain('mfrac');
    expect(next).not.toContain('katex-refused');
  });

  it('clips every block of text to its own box', () => {
    expect(html('plain')).toMatch(/^<div class="contain-text /);
  });

  it('names the length that made a formula refused', () => {
    expect(absurdLength('height:0.6944em;margin-right:-400em')).toBe('margin-right: -400em');
    expect(absurdLength('margin-right:-11em')).toBe('margin-right: -11em');
    expect(absurdLength('top:-12em;height:19em')).toBeNull();
    expect(absurdLength('height:21em')).toBe('height: 21em');
  });
});
