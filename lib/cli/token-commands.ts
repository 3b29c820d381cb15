import { createApiToken, listApiTokens, revokeApiToken } from '@/lib/server/accounts/tokens';
import { invalid } from '@/lib/server/errors';
import { cliActor } from '@/lib/server/system/system';
import { parseExpiry } from '@/lib/validation/api-tokens';
import type { Command } from './commands';
import { out, required, str } from './format';

/** Personal access tokens for the HTTP API (docs/api.md). The CLI acts as the admin, so it may name any account. */
export const TOKEN_COMMANDS: Command[] = [
  {
    name: 'token create',
    usage: 'token create --user USERNAME --name LABEL [--expires 90d] [--json]',
    summary:
      'Makes a personal access token for the account and prints it once (only its hash is kept). --expires: days (90d, the\n' +
      '      default) or years (1y), at most 365 days.',
    options: { user: { type: 'string' }, name: { type: 'string' }, expires: { type: 'string' }, json: { type: 'boolean' } },
    run(v) {
      const user = required(v, 'user');
      const expires = str(v, 'expires');
      const days = expires === undefined ? undefined : parseExpiry(expires);
      if (days === null) throw invalid(`--expires: "${expires}" is not a number of days (90d) or years (1y).`);
      const made = createApiToken(cliActor(), { username: user, name: str(v, 'name') ?? '', expiresInDays: days });
      if (v.json) out(`${JSON.stringify({ id: made.id, token: made.token, expiresAt: made.expiresAt })}\n`);
      else {
        out(
          `Token ${made.id} "${made.name}" for ${made.username}, valid until ${made.expiresAt}:\n${made.token}\n` +
            'It is shown only now; keep it where you keep passwords.\n',
        );
      }
    },
  },
  {
    name: 'token list',
    usage: 'token list [--user USERNAME] [--json]',
    summary: "Lists an account's tokens (every account's without --user): name, last four characters, state, expiry, last use.",
    options: { user: { type: 'string' }, json: { type: 'boolean' } },
    run(v) {
      const tokens = str(v, 'user') ? listApiTokens(cliActor(), { username: str(v, 'user') }) : listApiTokens(cliActor(), { all: true });
      if (v.json) {
        out(`${JSON.stringify(tokens)}\n`);
        return;
      }
      if (!tokens.length) out('No tokens.\n');
      for (const t of tokens) {
        out(`${t.id}\t${t.username}\t${t.name}\t…${t.last4}\t${t.state}\texpires ${t.expiresAt}\tlast used ${t.lastUsedAt ?? 'never'}\n`);
      }
    },
  },
  {
    name: 'token revoke',
    usage: 'token revoke ID',
    summary: 'Revokes a token at once: the next request made with it is refused.',
    run(_v, [id]) {
      if (!id || !/^\d+$/.test(id)) throw invalid('Give the id of the token to revoke (see `token list`).');
      const t = revokeApiToken(cliActor(), Number(id));
      out(`Token ${t.id} "${t.name}" of ${t.username} is revoked.\n`);
    },
  },
];
