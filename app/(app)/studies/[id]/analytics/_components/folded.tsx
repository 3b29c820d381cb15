/**
 * The rows of a dashboard table that have nothing to measure, folded into one line under it (a catalog of dozens of
 * criteria of which a handful were labelled stays readable), named when opened.
 */
export function FoldedEmpty({ names, noun, why }: { names: string[]; noun: [string, string]; why: string }) {
  if (!names.length) return null;
  return (
    <details className="px-4 py-2 text-xs text-slate-500" data-testid="folded-empty">
      <summary className="cursor-pointer">
        {names.length.toLocaleString('en-US')} {names.length === 1 ? noun[0] : noun[1]} with nothing to measure yet ({why}), folded away
      </summary>
      <p className="mt-1">{names.join(', ')}</p>
    </details>
  );
}
