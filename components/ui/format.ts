// A fixed locale keeps server and browser output identical, so hydration never
// disagrees about "1,182" versus "1.182".
const INTEGER = new Intl.NumberFormat('en-US');

export function formatCount(value: number): string {
  return INTEGER.format(value);
}

/** A share in [0, 1] as a percentage with at most `digits` decimals ("7.6%"). */
export function formatPercent(share: number, digits = 1): string {
  return `${(share * 100).toLocaleString('en-US', { maximumFractionDigits: digits })}%`;
}
