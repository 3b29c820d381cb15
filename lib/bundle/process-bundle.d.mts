/** Each bundled process by name, and the source it starts from (process-bundle.mjs). */
export const PROCESSES: Readonly<Record<'cli' | 'import-child' | 'report-child' | 'runner-child' | 'backup-child', string>>;
export type BundledProcess = keyof typeof PROCESSES;
/** The folder of the bundled processes for the sources now under `root`, built first if there is none yet. */
export function processBundle(root: string, processes?: Readonly<Record<string, string>>): string;
/** The bundled file of process `name` for the sources now under `root`. */
export function bundledProcess(root: string, name: BundledProcess): string;
