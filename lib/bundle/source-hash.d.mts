/** The fingerprint (SHA-256, hex) of the files under `dirs` and the `rootFiles` of `root` (source-hash.mjs). */
export function sourceHash(root: string, dirs: readonly string[], rootFiles: readonly string[]): string;
