/** The path of the CLI's bundle for the sources now under `root`, built first if there is none yet (cli-bundle.mjs). */
export function cliBundle(root: string): string;
