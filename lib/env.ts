import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { z } from 'zod';

const envSchema = z.object({
  CONCORD_DB: z.string().min(1).default('./data/concord.db'),
  CONCORD_PUBLIC_DATA: z.string().min(1).optional(),
  AUTH_SECRET: z.string().min(16, { error: 'AUTH_SECRET must be at least 16 characters' }).optional(),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  // How many reverse proxies in front of Concord append to X-Forwarded-For; 0 trusts no forwarded header.
  CONCORD_TRUST_PROXY: z.coerce
    .number({ error: 'CONCORD_TRUST_PROXY must be a whole number of proxies (0 when Concord faces clients directly)' })
    .int({ error: 'CONCORD_TRUST_PROXY must be a whole number of proxies (0 when Concord faces clients directly)' })
    .min(0)
    .max(10)
    .default(0),
  // Scheduled backups (README "Backups"): every 30m, 6h, 1d …; how many verified copies to keep; where.
  CONCORD_BACKUP_EVERY: z
    .string()
    .regex(/^[1-9]\d*(s|m|h|d)$/, { error: 'CONCORD_BACKUP_EVERY must be a whole number and a unit: s, m, h or d (e.g. 30m, 6h, 1d)' })
    .optional(),
  CONCORD_BACKUP_KEEP: z.coerce
    .number({ error: 'CONCORD_BACKUP_KEEP must be a whole number of backups, at least 1' })
    .int({ error: 'CONCORD_BACKUP_KEEP must be a whole number of backups, at least 1' })
    .min(1, { error: 'CONCORD_BACKUP_KEEP must be a whole number of backups, at least 1' })
    .default(14),
  CONCORD_BACKUP_DIR: z.string().min(1).optional(),
  // The HTTP API's limit per token (docs/api.md): a bucket of CONCORD_API_BURST requests refilled at CONCORD_API_RATE a second.
  CONCORD_API_RATE: z.coerce
    .number({ error: 'CONCORD_API_RATE must be a number of requests per second, above 0' })
    .positive({ error: 'CONCORD_API_RATE must be a number of requests per second, above 0' })
    .default(20),
  CONCORD_API_BURST: z.coerce
    .number({ error: 'CONCORD_API_BURST must be a whole number of requests, at least 1' })
    .int({ error: 'CONCORD_API_BURST must be a whole number of requests, at least 1' })
    .min(1, { error: 'CONCORD_API_BURST must be a whole number of requests, at least 1' })
    .default(120),
});

export type Env = z.infer<typeof envSchema>;

const NAMES = Object.keys(envSchema.shape) as (keyof Env)[];
let cached: { key: string; env: Env } | undefined;

/**
 * The environment, parsed again only when one of its variables changed: a server reads the same values on every
 * call, while a process that points itself at another database (the tests of one worker, one file after another)
 * gets that one.
 */
export function env(): Env {
  const key = NAMES.map((name) => process.env[name] ?? '\u0000').join('\u0001');
  if (cached?.key !== key) {
    const parsed = envSchema.safeParse(process.env);
    if (!parsed.success) throw new Error(`Invalid environment:\n${z.prettifyError(parsed.error)}`);
    cached = { key, env: parsed.data };
  }
  return cached.env;
}

export function databasePath(): string {
  return path.resolve(env().CONCORD_DB);
}

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `30m`, `6h` … in milliseconds. */
export function durationMs(text: string): number {
  const m = /^([1-9]\d*)(s|m|h|d)$/.exec(text);
  if (!m) throw new Error(`${text} is not a duration such as 30m, 6h or 1d`);
  return Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
}

/** The backup schedule from the environment: off (`every` null) unless CONCORD_BACKUP_EVERY is set. */
export function backupConfig(): { every: string | null; everyMs: number | null; keep: number; dir: string } {
  const e = env();
  return {
    every: e.CONCORD_BACKUP_EVERY ?? null,
    everyMs: e.CONCORD_BACKUP_EVERY ? durationMs(e.CONCORD_BACKUP_EVERY) : null,
    keep: e.CONCORD_BACKUP_KEEP,
    dir: path.resolve(/*turbopackIgnore: true*/ e.CONCORD_BACKUP_DIR ?? path.join(path.dirname(databasePath()), 'backups')),
  };
}

/**
 * AUTH_SECRET from the environment, or one generated on first start and kept beside the database,
 * so a fresh demo install signs people in without any configuration and sessions survive restarts.
 */
export function authSecret(): string {
  const fromEnv = env().AUTH_SECRET;
  if (fromEnv) return fromEnv;
  const file = path.join(path.dirname(databasePath()), 'auth-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const secret = crypto.randomBytes(32).toString('base64url');
    try {
      fs.writeFileSync(file, secret, { flag: 'wx', mode: 0o600 });
      return secret;
    } catch {
      // Another process created it first: use theirs.
      return fs.readFileSync(file, 'utf8').trim();
    }
  }
}
