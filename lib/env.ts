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
});

export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

export function env(): Env {
  if (!cached) {
    const parsed = envSchema.safeParse(process.env);
    if (!parsed.success) throw new Error(`Invalid environment:\n${z.prettifyError(parsed.error)}`);
    cached = parsed.data;
  }
  return cached;
}

export function databasePath(): string {
  return path.resolve(env().CONCORD_DB);
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
