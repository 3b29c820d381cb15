/**
 * Rewrites tutoring-dialogue text so that remark-math (with single-dollar math
 * on) sees exactly the math the author meant, and nothing else.
 *
 * Why a pre-pass: remark-math only knows `$…$` and `$$…$$`, and it treats every
 * unescaped `$` as a possible delimiter. Word problems are full of prices
 * ("costs $5 and $7"), and LLM drafts mix `\(…\)`, `\[…\]` and bare `\boxed{}`.
 * Rather than turning single-dollar math off (which breaks `$x$`, the most
 * common form), this pass decides every `$` itself: a `$` that opens math is
 * kept as a delimiter, and every other `$` becomes the Markdown escape `\$`.
 *
 * The rules, in order of application:
 * - Code is never touched: fenced blocks (``` or ~~~) and inline code spans are
 *   copied verbatim. Indented (4-space) code blocks are not detected, because
 *   they cannot be told apart from list continuations without a full parser.
 * - A backslash escape outside math (`\$`, `\\`, …) is copied as is, so `\$5`
 *   stays a literal dollar and `\\(` is a literal backslash, not math.
 * - `\(…\)` becomes inline math and `\[…\]` display math, when the closer is
 *   found before a blank line. Otherwise the text is left alone.
 * - `\boxed{…}` outside math (braces balanced) is wrapped as inline math.
 * - `$$…$$` is display math when closed before a blank line; an unmatched `$$`
 *   is escaped.
 * - A single `$` opens inline math only if all of these hold (2 and 3 are
 *   Pandoc's `tex_math_dollars` rules):
 *     1. the next unescaped `$` (the closer) comes before a blank line and is a
 *        single `$`, not part of `$$`;
 *     2. the content neither starts nor ends with whitespace, so "$5 and $7"
 *        is not math (its content "5 and " ends with a space);
 *     3. the closer is not directly followed by a digit, so "$5+$3=$8" is not;
 *     4. the opener is not followed by a price: an amount such as `5`, `1,200`
 *        or `2.50` followed by a space and a word ("$5 each"), by sentence
 *        punctuation and a space or the end ("$5, then"), or by the end of the
 *        line. `$2 + 3$`, `$3x$` and `$5$` remain math.
 *   A `$` that fails any rule is escaped. The cost of rule 2 is that `$ x $`
 *   (padded with spaces) is shown as text; rule 4 costs `$5 apples$`.
 *
 * Math is re-emitted in a canonical form so that Markdown cannot misread it:
 * display math on lines of its own becomes a `$$` block; any other math is
 * written on one line (TeX treats a line break as a space) with a dollar fence
 * that does not occur inside it, because micromark closes math at the first
 * run of dollars as long as the opener and ignores backslashes there. So
 * `$\text{cost } \$5$` becomes `$$$\text{cost } \$5$$$`. Running the pass
 * twice gives the same text as running it once.
 */
export function normalizeMathDelimiters(input: string): string {
  // One line-ending convention, so blank-line and line-start checks hold.
  const text = input.replace(/\r\n?/g, '\n');
  const out: string[] = [];
  let i = 0;
  const n = text.length;
  let mathEndsAt = -1;
  // Inline constructs never cross a blank line, so every search stops at the
  // end of the current paragraph.
  const paragraphs = paragraphEnds(text);
  const search = makeSearch(text);

  // Two math spans written back to back would fuse their fences into one long
  // dollar run, so a space keeps them apart.
  const pushMath = (math: string, next: number) => {
    if (mathEndsAt === i) out.push(' ');
    out.push(math);
    i = next;
    mathEndsAt = next;
  };

  while (i < n) {
    const ch = text[i];

    if (isLineStart(text, i)) {
      const fenceEnd = fencedCodeEnd(text, i);
      if (fenceEnd !== -1) {
        out.push(text.slice(i, fenceEnd));
        i = fenceEnd;
        continue;
      }
    }

    if (ch === '`') {
      const run = runLength(text, i, '`');
      const close = search.run('`', run, i + run, paragraphs.endAfter(i));
      if (close === -1) {
        out.push(text.slice(i, i + run));
        i += run;
      } else {
        out.push(text.slice(i, close + run));
        i = close + run;
      }
      continue;
    }

    if (ch === '\\') {
      const next = text[i + 1];
      if (next === '(' || next === '[') {
        const closer = next === '(' ? '\\)' : '\\]';
        const end = search.text(closer, i + 2, paragraphs.endAfter(i));
        if (end !== -1) {
          const content = text.slice(i + 2, end);
          const emitted =
            next === '(' ? inlineMath(content, INLINE_FENCES, text.slice(end + 2, end + 3)) : displayMath(text, i, end + 2, content);
          if (emitted !== null) {
            pushMath(emitted, end + 2);
            continue;
          }
        }
        out.push(text.slice(i, i + 2));
        i += 2;
        continue;
      }
      if (text.startsWith('boxed{', i + 1)) {
        const close = search.matchingBrace(i + 6, paragraphs.endAfter(i));
        if (close !== -1) {
          const emitted = inlineMath(text.slice(i, close + 1), INLINE_FENCES, text.slice(close + 1, close + 2));
          if (emitted !== null) {
            pushMath(emitted, close + 1);
            continue;
          }
        }
      }
      // Any other backslash escape, or a lone trailing backslash.
      out.push(text.slice(i, i + 2));
      i += 2;
      continue;
    }

    if (ch === '$') {
      const run = runLength(text, i, '$');
      if (run === 2) {
        const close = search.run('$', 2, i + 2, paragraphs.endAfter(i));
        if (close !== -1 && close > i + 2) {
          const emitted = displayMath(text, i, close + 2, text.slice(i + 2, close));
          if (emitted !== null) {
            pushMath(emitted, close + 2);
            continue;
          }
        }
        out.push('\\$\\$');
        i += 2;
        continue;
      }
      if (run === 1) {
        const close = singleDollarCloser(text, i, paragraphs.endAfter(i));
        if (close !== -1) {
          const emitted = inlineMath(text.slice(i + 1, close), INLINE_FENCES, text.slice(close + 1, close + 2));
          if (emitted !== null) {
            pushMath(emitted, close + 1);
            continue;
          }
        }
      }
      if (run >= 3) {
        // Only this pass writes such fences (for math that holds `$` or `$$`).
        const close = search.run('$', run, i + run, paragraphs.endAfter(i));
        if (close !== -1) {
          const emitted = inlineMath(text.slice(i + run, close), [run], '');
          if (emitted !== null) {
            pushMath(emitted, close + run);
            continue;
          }
        }
      }
      out.push('\\$'.repeat(run));
      i += run;
      continue;
    }

    out.push(ch);
    i += 1;
  }

  return out.join('');
}

// Sticky, so it is tried exactly at the character after the opening `$`.
const PRICE_AFTER_DOLLAR = /\d[\d,]*(?:\.\d+)?(?:[ \t]+[A-Za-z]|[.,;:!?)](?:\s|$)|[ \t]*(?:\n|$))/y;

/** Index of the `$` closing the inline math opened at `open`, or -1 if the rules above say this `$` is not math. */
function singleDollarCloser(text: string, open: number, limit: number): number {
  const first = text[open + 1];
  if (first === undefined || isWhitespace(first)) return -1;
  PRICE_AFTER_DOLLAR.lastIndex = open + 1;
  if (PRICE_AFTER_DOLLAR.test(text)) return -1;

  const close = findUnescapedDollar(text, open + 1, limit);
  if (close === -1) return -1;
  if (runLength(text, close, '$') !== 1) return -1;
  if (isWhitespace(text[close - 1])) return -1;
  const after = text[close + 1];
  if (after !== undefined && after >= '0' && after <= '9') return -1;
  return close;
}

/**
 * Inline math on one line, fenced with the first of `fences` (then 3, 4, …
 * dollars) that does not appear as a run of that length inside, so micromark
 * cannot close it early.
 * Inline math never takes a `$$` fence unless it came from display math: `$$`
 * alone on a line reads as a display block, and the output must mean the same
 * thing when normalised again. `following` is the text right after the math.
 */
function inlineMath(content: string, fences: readonly number[], following: string): string | null {
  const body = content.replace(/\s*\n\s*/g, ' ').trim();
  if (body === '') return null;
  if (endsWithLoneBackslash(body)) return null;
  const runs = dollarRunLengths(body);
  // A body touching its fence needs a space on each side, and only a fence of
  // three or more reads back as math then. A single-dollar fence must pass the
  // same closer rules as the author's own `$…$`.
  const pad = body.startsWith('$') || body.endsWith('$') ? ' ' : '';
  const candidates = [...fences];
  for (let length = 3; length <= Math.max(3, ...runs) + 1; length++) candidates.push(length);
  const fence = candidates.find((length) => {
    if (runs.has(length) || (pad !== '' && length < 3)) return false;
    if (length !== 1) return true;
    const candidate = `$${body}$${following}`;
    return singleDollarCloser(candidate, 0, candidate.length) === body.length + 1;
  });
  if (fence === undefined) return null;
  const delimiter = '$'.repeat(fence);
  return delimiter + pad + body + pad + delimiter;
}

// Longer fences are appended as needed in inlineMath.
const INLINE_FENCES = [1] as const;
const DISPLAY_FENCES = [2] as const;

/**
 * Display math spanning text[start, end). When it stands on lines of its own it
 * becomes a `$$` block, keeping the line's indentation so list items hold it;
 * otherwise it stays inline with a `$$` fence.
 */
function displayMath(text: string, start: number, end: number, content: string): string | null {
  const body = content.trim();
  if (body === '' || endsWithLoneBackslash(body)) return null;
  // Only blanks may share the lines; walking over just those keeps a long
  // single-line text from being rescanned for every pair.
  let lineStart = start;
  while (lineStart > 0 && isBlank(text[lineStart - 1])) lineStart--;
  let lineEnd = end;
  while (lineEnd < text.length && isBlank(text[lineEnd])) lineEnd++;
  const standsAlone = (lineStart === 0 || text[lineStart - 1] === '\n') && (lineEnd === text.length || text[lineEnd] === '\n');
  // A `$$` inside would be read back as the block's end by the next pass.
  if (standsAlone && !dollarRunLengths(body).has(2)) {
    const indent = text.slice(lineStart, start);
    return `$$\n${indent}${body}\n${indent}$$`;
  }
  return inlineMath(content, DISPLAY_FENCES, '');
}

/**
 * TeX cannot end on a lone backslash, and inline it would escape the closing
 * dollar when read back; such spans are left as the author wrote them.
 */
function endsWithLoneBackslash(body: string): boolean {
  return /(?:^|[^\\])(?:\\\\)*\\$/.test(body);
}

function isLineStart(text: string, i: number): boolean {
  return i === 0 || text[i - 1] === '\n';
}

/**
 * End (exclusive) of a fenced code block starting on the line at `i`, or -1.
 * Block-quote and list-marker prefixes are accepted so fences inside them are
 * protected too; erring towards "this is code" only costs a missed conversion.
 */
function fencedCodeEnd(text: string, i: number): number {
  const lineEnd = text.indexOf('\n', i);
  const line = text.slice(i, lineEnd === -1 ? text.length : lineEnd);
  const open = /^[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?(`{3,}|~{3,})(.*)$/.exec(line);
  if (!open) return -1;
  const fence = open[1];
  if (fence[0] === '`' && open[2].includes('`')) return -1;
  if (lineEnd === -1) return text.length;

  const closing = new RegExp(`^[ \\t>]*${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`);
  let pos = lineEnd + 1;
  while (pos <= text.length) {
    const next = text.indexOf('\n', pos);
    const candidate = text.slice(pos, next === -1 ? text.length : next);
    if (closing.test(candidate)) return next === -1 ? text.length : next;
    if (next === -1) break;
    pos = next + 1;
  }
  // An unclosed fence runs to the end of the document in CommonMark.
  return text.length;
}

function runLength(text: string, i: number, ch: string): number {
  let j = i;
  while (text[j] === ch) j++;
  return j - i;
}

/**
 * Forward searches over one text. The scan above only moves forward, so each
 * search remembers where it last looked and what it found, and a text full of
 * unclosed `\(` or `\boxed{` costs linear time instead of quadratic.
 */
function makeSearch(text: string) {
  const memo = new Map<string, { from: number; found: number }>();
  const remembered = (key: string, from: number, find: () => number): number => {
    const last = memo.get(key);
    // The last answer was the first hit at or after last.from, so it still is
    // for any later start that has not passed it.
    if (last && from >= last.from && (last.found === -1 || last.found >= from)) return last.found;
    const found = find();
    memo.set(key, { from, found });
    return found;
  };
  let braces: Int32Array | null = null;

  return {
    /** Start of the next run of exactly `length` copies of `ch` in [from, limit), or -1. */
    run(ch: string, length: number, from: number, limit: number): number {
      const found = remembered(`run:${ch}:${length}`, from, () => {
        let j = from;
        while (j < text.length) {
          if (text[j] === ch) {
            const run = runLength(text, j, ch);
            if (run === length) return j;
            j += run;
          } else {
            j++;
          }
        }
        return -1;
      });
      return found !== -1 && found < limit ? found : -1;
    },

    /** Next occurrence of `needle` in [from, limit), or -1. */
    text(needle: string, from: number, limit: number): number {
      const found = remembered(`text:${needle}`, from, () => text.indexOf(needle, from));
      return found !== -1 && found < limit ? found : -1;
    },

    /**
     * The `}` matching the `{` at `open`, before `limit`, or -1. All pairs are
     * found in one pass; `\{`, `\}` and `\\` are skipped as escapes, and a
     * blank line closes every open brace.
     */
    matchingBrace(open: number, limit: number): number {
      if (!braces) {
        braces = new Int32Array(text.length).fill(-1);
        const stack: number[] = [];
        for (let j = 0; j < text.length; j++) {
          const c = text[j];
          if (c === '\\') j++;
          else if (c === '{') stack.push(j);
          else if (c === '}') {
            const start = stack.pop();
            if (start !== undefined) braces[start] = j;
          } else if (c === '\n') {
            let k = j + 1;
            while (text[k] === ' ' || text[k] === '\t') k++;
            if (text[k] === '\n') stack.length = 0;
          }
        }
      }
      const close = braces[open] ?? -1;
      return close < limit ? close : -1;
    },
  };
}

function findUnescapedDollar(text: string, from: number, limit: number): number {
  for (let j = from; j < limit; j++) {
    if (text[j] === '\\') {
      j++;
      continue;
    }
    if (text[j] === '$') return j;
  }
  return -1;
}

/**
 * `endAfter(i)` is where the paragraph holding `i` ends: the start of the next
 * blank line, or the end of the text. Calls move forward through the text, so
 * the last answer is reused until `i` passes it.
 */
function paragraphEnds(text: string) {
  const blankLine = /\n[ \t]*\n/g;
  let from = -1;
  let end = -1;
  return {
    endAfter(i: number): number {
      if (i >= from && i < end) return end;
      blankLine.lastIndex = i;
      const match = blankLine.exec(text);
      from = i;
      end = match ? match.index : text.length;
      // `i` can sit inside the blank line itself; its paragraph is then empty.
      if (end < i) end = i;
      return end;
    },
  };
}

function dollarRunLengths(body: string): Set<number> {
  const lengths = new Set<number>();
  for (const match of body.matchAll(/\$+/g)) lengths.add(match[0].length);
  return lengths;
}

function isBlank(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\t';
}

function isWhitespace(ch: string | undefined): boolean {
  return ch !== undefined && /\s/.test(ch);
}
