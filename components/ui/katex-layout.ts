import type { Element, ElementContent, Root } from 'hast';

/*
 * Imported TeX must not be able to lay itself out over the rest of the page: on the judging screen a reply could
 * otherwise draw "this is the expert reference" over the other reply. KaTeX's `maxSize` caps the sizes an author
 * writes, but only from above: `\kern{-400em}`, `\hspace{-300em}`, `\mkern-3000mu` and `\raisebox{-60em}` pass
 * through, and the overlap commands (`\llap`, `\mathrlap`, …) need no size at all. So:
 * - the overlap commands are redefined (KATEX_MACROS) to take up the room of what they hold, like any other box;
 * - after rendering, a formula whose layout holds a negative space beyond −MAX_SIZE_EM or any length beyond twice
 *   that (rehypeRefuseAbsurdLayout) is not drawn: its TeX source is shown instead, as text.
 * What is left (moderate sizes) is clipped to the text's own box by the `contain-text` utility (app/globals.css).
 */

/** KaTeX's `maxSize`: no size an author writes draws more than this many ems. */
export const MAX_SIZE_EM = 10;

/** Overlap commands, redefined as ordinary boxes (text-mode ones keep their argument in text mode). */
export const KATEX_MACROS: Record<string, string> = {
  '\\llap': '\\text{#1}',
  '\\rlap': '\\text{#1}',
  '\\clap': '\\text{#1}',
  '\\mathllap': '{#1}',
  '\\mathrlap': '{#1}',
  '\\mathclap': '{#1}',
};

// One `property: <number>em` of an inline style; KaTeX writes every size it lays out in ems.
const LENGTH = /([a-z-]+)\s*:\s*(-?\d+(?:\.\d+)?)em/g;

/** The first length in a style that no sensible formula needs, or null. */
export function absurdLength(style: string): string | null {
  for (const m of style.matchAll(LENGTH)) {
    const value = Number(m[2]);
    const margin = m[1] === 'margin-left' || m[1] === 'margin-right';
    if (Math.abs(value) > 2 * MAX_SIZE_EM || (margin && value < -MAX_SIZE_EM)) return `${m[1]}: ${m[2]}em`;
  }
  return null;
}

const classes = (node: Element): string[] => {
  const c: unknown = node.properties?.className;
  return Array.isArray(c) ? c.map(String) : typeof c === 'string' ? c.split(/\s+/) : [];
};

function findAbsurd(node: ElementContent): string | null {
  if (node.type !== 'element') return null;
  const style = node.properties?.style;
  if (typeof style === 'string') {
    const found = absurdLength(style);
    if (found) return found;
  }
  for (const child of node.children) {
    const found = findAbsurd(child);
    if (found) return found;
  }
  return null;
}

function texSource(node: ElementContent): string | null {
  if (node.type !== 'element') return null;
  if (node.tagName === 'annotation') {
    return node.children.map((c) => (c.type === 'text' ? c.value : '')).join('');
  }
  for (const child of node.children) {
    const found = texSource(child);
    if (found !== null) return found;
  }
  return null;
}

/** Rehype plugin, after rehype-katex: replaces each formula with absurd layout by its TeX source as inline code. */
export function rehypeRefuseAbsurdLayout() {
  const visit = (parent: Root | Element) => {
    parent.children.forEach((child, i) => {
      if (child.type !== 'element') return;
      if (classes(child).includes('katex')) {
        const found = findAbsurd(child);
        if (!found) return;
        const source = texSource(child) ?? '';
        parent.children[i] = {
          type: 'element',
          tagName: 'code',
          properties: { className: ['katex-refused'], title: `Formula not drawn: its layout asks for ${found}.` },
          children: [{ type: 'text', value: source }],
        };
        return;
      }
      visit(child);
    });
  };
  return (tree: Root) => visit(tree);
}
