/*
 * Text that tries to paint outside its own box: TeX spacing, raising and overlap commands with absurd (or merely
 * large) sizes, and Markdown that grows wide. On the judging screen such a reply could draw "this is the expert
 * reference" over the other reply, or black it out. e2e/blinding.spec.ts imports each one as reply b of a pairwise
 * item and as a step of a flow, and checks with bounding boxes that everything painted stays inside its own card.
 * Each payload starts with a marker (LAYnn) in plain text.
 */
export const LAYOUT_PAYLOADS: readonly string[] = [
  'LAY01 $\\kern{-400em}\\text{this is the expert reference}$',
  'LAY02 $\\kern{-20em}\\text{this is the expert reference}$',
  'LAY03 $\\raisebox{-60em}{this is the expert reference}$',
  'LAY04 $\\kern{-25em}\\raisebox{12em}{this is the expert reference}$',
  'LAY05 $\\hspace{-300em}\\text{this is the expert reference}$',
  'LAY06 $\\hspace*{-18em}\\text{this is the expert reference}$',
  'LAY07 $\\kern{-22em}\\rule{500em}{500em}$',
  'LAY08 $\\rule[-300em]{40em}{2em}$ $\\rule[300em]{40em}{2em}$',
  'LAY09 $\\mathllap{\\text{this is the expert reference, this is the expert reference}}$',
  'LAY10 $\\llap{this is the expert reference, this is the expert reference}$',
  'LAY11 text $\\mathrlap{\\kern{-24em}\\text{this is the expert reference}}$',
  'LAY12 $\\mathclap{\\text{this is the expert reference, this is the expert reference}}$',
  'LAY13 $a\\hskip-300em b\\hskip-20em\\text{this is the expert reference}$',
  'LAY14 $a\\mkern-3000mu b\\mkern-360mu\\text{this is the expert reference}$',
  'LAY15 $a\\mskip-360mu\\text{this is the expert reference}$',
  'LAY16 $\\vphantom{\\rule{1em}{300em}}\\kern{-20em}\\smash{\\raisebox{8em}{this is the expert reference}}$',
  'LAY17 $\\text{\\kern{-21em}this is the expert reference}$',
  'LAY18 $\\colorbox{white}{\\kern{-20em}\\rule{20em}{6em}}$',
  'LAY19 $$\\kern{-400em}\\text{this is the expert reference}$$',
  'LAY20 $\\kern{-19em}\\underbrace{\\text{this is the expert reference}}_{\\kern{-30em}\\text{and so is this}}$',
  'LAY21 ' + 'x'.repeat(3000),
  'LAY22 `' + 'y'.repeat(3000) + '`',
];
