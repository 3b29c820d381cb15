import 'katex/dist/katex.min.css';
import Markdown, { type Components, type UrlTransform } from 'react-markdown';
import rehypeKatex, { type Options as KatexOptions } from 'rehype-katex';
import remarkMath from 'remark-math';
import { cn } from './cn';
import { KATEX_MACROS, MAX_SIZE_EM, rehypeRefuseAbsurdLayout } from './katex-layout';
import { normalizeMathDelimiters } from './math-text';

// Deliberately not 'use client': react-markdown renders synchronously, so this
// works as a server component and as part of a client tree alike.

const ALLOWED_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/**
 * Text comes from imported data, so every URL is parsed the way a browser
 * would (which strips tabs and newlines inside `java\tscript:`) and kept only
 * when absolute with an allowed scheme. Relative links are dropped too: they
 * would point into Concord itself, which imported data has no business doing.
 */
export const safeUrl: UrlTransform = (url) => {
  try {
    const parsed = new URL(url);
    return ALLOWED_PROTOCOLS.has(parsed.protocol) ? parsed.href : null;
  } catch {
    return null;
  }
};

const KATEX_OPTIONS: KatexOptions = {
  // rehype-katex first renders with throwOnError on (to report the error) and
  // then falls back to throwOnError: false, so a bad formula never breaks the
  // page; its option type omits throwOnError for that reason.
  // No command that makes links, loads images or sets classes, ids, styles or
  // data attributes (\href, \includegraphics, \htmlStyle, …), whatever the
  // data asks: imported text is never trusted.
  trust: () => false,
  strict: 'ignore',
  // Imported TeX must not be able to draw a page-sized box over the controls
  // or stall rendering with runaway macros. maxSize only caps sizes from above;
  // katex-layout.ts deals with the rest (negative spaces, raising, overlaps).
  maxSize: MAX_SIZE_EM,
  maxExpand: 500,
  // A fresh copy for every formula (rehype-katex spreads these options for each
  // one): KaTeX writes `\gdef` definitions into this object, and one reply must
  // not be able to redefine commands for the text rendered after it.
  get macros() {
    return { ...KATEX_MACROS };
  },
};

const components: Components = {
  a({ href, title, children }) {
    if (!href) return <span>{children}</span>;
    return (
      <a href={href} title={title} target="_blank" rel="noopener noreferrer nofollow">
        {children}
      </a>
    );
  },
  // Remote images in imported data would leak reviewers' addresses to any
  // host and could show anything; the alt text is what a reviewer needs.
  img({ alt }) {
    return <span className="rounded bg-slate-100 px-1 text-slate-600 not-italic">[image{alt ? `: ${alt}` : ''}]</span>;
  },
};

// In inline mode block structure is flattened into the surrounding line.
const BLOCK_ELEMENTS = [
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'blockquote',
  'pre',
  'hr',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
];

export type RichTextProps = {
  text: string;
  className?: string;
  /** Render inside a line (table cell, chip, heading) without paragraphs or typography margins. */
  inline?: boolean;
};

/**
 * Markdown with math for text from imported data. Raw HTML is shown as text
 * (react-markdown turns HTML nodes into text unless rehype-raw is used, and it
 * is not), links are limited to http, https and mailto, and math goes through
 * KaTeX with trust off, so no markup, script or `javascript:` link can come
 * from the data.
 */
export function RichText({ text, className, inline = false }: RichTextProps) {
  const markdown = (
    <Markdown
      // Single-dollar math is safe to enable because normalizeMathDelimiters
      // has escaped every `$` that is not a math delimiter.
      remarkPlugins={[[remarkMath, { singleDollarTextMath: true }]]}
      rehypePlugins={[[rehypeKatex, KATEX_OPTIONS], rehypeRefuseAbsurdLayout]}
      urlTransform={safeUrl}
      components={components}
      disallowedElements={inline ? BLOCK_ELEMENTS : undefined}
      unwrapDisallowed={inline}
    >
      {normalizeMathDelimiters(text)}
    </Markdown>
  );

  if (inline) {
    return <span className={className}>{markdown}</span>;
  }
  return (
    <div
      className={cn(
        // contain-text: whatever the text lays out is clipped to this box, and a formula too wide for it scrolls.
        'contain-text prose prose-sm prose-slate max-w-none break-words',
        // Inline code as a grey box, without the backticks the typography plugin draws around it (issue 26).
        'prose-code:rounded prose-code:bg-slate-100 prose-code:px-1 prose-code:py-0.5 prose-code:font-normal prose-code:before:content-none prose-code:after:content-none',
        '[&_.katex-display]:overflow-x-auto [&_.katex-display]:overflow-y-hidden [&_.katex-display]:py-1',
        className,
      )}
    >
      {markdown}
    </div>
  );
}
