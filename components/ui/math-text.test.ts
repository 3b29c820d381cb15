import { describe, expect, it } from 'vitest';
import { normalizeMathDelimiters as normalize } from './math-text';

describe('normalizeMathDelimiters: prices stay text', () => {
  it.each([
    ['costs $5 and $7', 'costs \\$5 and \\$7'],
    ['He paid $1,200 each month.', 'He paid \\$1,200 each month.'],
    ['$5+$3=$8', '\\$5+\\$3=\\$8'],
    ['Pens cost $2.50, pencils $1.', 'Pens cost \\$2.50, pencils \\$1.'],
    ['a lone $ sign', 'a lone \\$ sign'],
    ['Total: $12', 'Total: \\$12'],
  ])('%s', (input, expected) => {
    expect(normalize(input)).toBe(expected);
  });

  it('keeps math that follows a price in the same paragraph', () => {
    expect(normalize('Each pen is $5 each, so $x$ pens cost $5x$.')).toBe('Each pen is \\$5 each, so $x$ pens cost $5x$.');
  });

  it('does not pair a price with a dollar across a blank line', () => {
    expect(normalize('$a\n\nb$')).toBe('\\$a\n\nb\\$');
  });
});

describe('normalizeMathDelimiters: dollar math', () => {
  it.each([
    ['$x$', '$x$'],
    ['$2 + 3 = 5$', '$2 + 3 = 5$'],
    ['So $3x = 12$, hence $x=4$.', 'So $3x = 12$, hence $x=4$.'],
    ['$5$', '$5$'],
    ['$\\boxed{42}$', '$\\boxed{42}$'],
  ])('%s is left as math', (input, expected) => {
    expect(normalize(input)).toBe(expected);
  });

  it('shows space-padded dollars as text (Pandoc rule)', () => {
    expect(normalize('$ x $')).toBe('\\$ x \\$');
  });

  it('refences math holding an escaped dollar so micromark does not close it early', () => {
    expect(normalize('$\\text{cost } \\$5$')).toBe('$$$\\text{cost } \\$5$$$');
  });

  it('turns display math on its own line into a block', () => {
    expect(normalize('Solve:\n$$x^2 = 4$$\nDone.')).toBe('Solve:\n$$\nx^2 = 4\n$$\nDone.');
  });

  it('joins multi-line inline display math so it cannot open a runaway math block', () => {
    expect(normalize('$$\\frac{a}{b}\n= c$$ is the rule')).toBe('$$\\frac{a}{b} = c$$ is the rule');
  });

  it('escapes an unmatched double dollar', () => {
    expect(normalize('price $$ tag')).toBe('price \\$\\$ tag');
  });
});

describe('normalizeMathDelimiters: backslash delimiters', () => {
  it('converts \\(…\\) to inline dollars and trims padding', () => {
    expect(normalize('Let \\( x^2 \\) be')).toBe('Let $x^2$ be');
  });

  it('converts \\[…\\] on its own lines to a display block, keeping list indentation', () => {
    expect(normalize('1. Step\n   \\[\n   a+b\n   \\]\n')).toBe('1. Step\n   $$\n   a+b\n   $$\n');
  });

  it('converts \\[…\\] inside a sentence to inline double dollars', () => {
    expect(normalize('we get \\[x=1\\] here')).toBe('we get $$x=1$$ here');
  });

  it('leaves an unclosed \\( alone', () => {
    expect(normalize('a \\(b')).toBe('a \\(b');
  });

  it('keeps a literal backslash before a parenthesis', () => {
    expect(normalize('\\\\(x\\\\)')).toBe('\\\\(x\\\\)');
  });

  it('keeps escaped dollars escaped', () => {
    expect(normalize('\\$5 and \\$7')).toBe('\\$5 and \\$7');
  });
});

describe('normalizeMathDelimiters: bare \\boxed', () => {
  it('wraps a bare \\boxed{} in math', () => {
    expect(normalize('Answer: \\boxed{42}')).toBe('Answer: $\\boxed{42}$');
  });

  it('matches nested braces', () => {
    expect(normalize('\\boxed{\\frac{1}{2}} done')).toBe('$\\boxed{\\frac{1}{2}}$ done');
  });

  it('leaves unbalanced braces alone', () => {
    expect(normalize('\\boxed{42')).toBe('\\boxed{42');
  });
});

describe('normalizeMathDelimiters: code is untouched', () => {
  it('skips inline code spans', () => {
    expect(normalize('`\\(x\\)` and `$5` but \\(y\\)')).toBe('`\\(x\\)` and `$5` but $y$');
  });

  it('skips code spans with longer backtick fences', () => {
    expect(normalize('``a ` $5 ``')).toBe('``a ` $5 ``');
  });

  it('skips fenced code blocks', () => {
    const input = 'Before $5 each\n```python\nprint("$5", r"\\(x\\)")\n```\nafter \\(z\\)';
    expect(normalize(input)).toBe('Before \\$5 each\n```python\nprint("$5", r"\\(x\\)")\n```\nafter $z$');
  });

  it('treats an unclosed fence as code to the end', () => {
    expect(normalize('~~~\n$5 \\(x\\)')).toBe('~~~\n$5 \\(x\\)');
  });
});

describe('normalizeMathDelimiters: paragraphs and line endings', () => {
  it('does not let a code span or \\boxed reach across a blank line', () => {
    expect(normalize('`a\n\n$5 b`')).toBe('`a\n\n\\$5 b`');
    expect(normalize('\\boxed{a\n\n}')).toBe('\\boxed{a\n\n}');
  });

  it('treats Windows line endings like Unix ones', () => {
    expect(normalize('Total $5\r\n\r\n$x$')).toBe('Total \\$5\n\n$x$');
    expect(normalize('\\[\r\nx\r\n\\]')).toBe('$$\nx\n$$');
  });
});

describe('normalizeMathDelimiters: stability', () => {
  it.each([
    'costs $5 and $7, so $x + y = 12$',
    'Let \\(x\\) and \\[y\\] and \\boxed{3}',
    '$$\na\n$$',
    '$\\text{cost } \\$5$',
    'plain text without any math',
  ])('is idempotent on %s', (input) => {
    const once = normalize(input);
    expect(normalize(once)).toBe(once);
  });
});
