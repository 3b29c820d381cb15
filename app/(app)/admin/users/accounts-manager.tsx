'use client';

import { useActionFeedback } from '@/components/ui/use-action-feedback';
import type { UserDto } from '@/lib/server/accounts/dto';
import { createUserAction, resetPasswordAction, setUserActiveAction, setUserRoleAction } from './actions';

const ROLES = ['annotator', 'lead', 'admin'] as const;
const input = 'rounded-md border border-slate-300 px-2 py-1.5 text-sm';

export function AccountsManager({ users, selfId }: { users: UserDto[]; selfId: number }) {
  const { pending, message, fieldErrors, run } = useActionFeedback();

  return (
    <div className="space-y-6">
      <form
        className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4"
        aria-label="New account"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const data = Object.fromEntries(new FormData(form)) as Record<string, string>;
          run(
            () => createUserAction({ username: data.username, displayName: data.displayName, password: data.password, role: data.role }),
            `Created ${data.username}.`,
            () => form.reset(),
          );
        }}
      >
        {(
          [
            ['username', 'Username', 'text'],
            ['displayName', 'Name', 'text'],
            ['password', 'Password', 'password'],
          ] as const
        ).map(([name, label, type]) => (
          <label key={name} className="text-sm">
            <span className="block text-slate-600">{label}</span>
            <input name={name} type={type} required className={`${input} mt-1`} aria-invalid={!!fieldErrors[name]} />
            {fieldErrors[name] && <span className="block max-w-56 text-xs text-red-700">{fieldErrors[name]}</span>}
          </label>
        ))}
        <label className="text-sm">
          <span className="block text-slate-600">Role</span>
          <select name="role" defaultValue="annotator" className={`${input} mt-1`}>
            {ROLES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </label>
        <button
          type="submit"
          disabled={pending}
          className="rounded-md bg-accent-600 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-60"
        >
          Create account
        </button>
      </form>

      {message && (
        <p
          role={message.tone === 'error' ? 'alert' : 'status'}
          className={message.tone === 'error' ? 'text-sm text-red-700' : 'text-sm text-emerald-700'}
        >
          {message.text}
        </p>
      )}

      <table className="w-full rounded-lg border border-slate-200 bg-white text-sm" data-testid="accounts">
        <thead className="bg-slate-50 text-left text-slate-600">
          <tr>
            <th className="px-3 py-2">Username</th>
            <th className="px-3 py-2">Name</th>
            <th className="px-3 py-2">Role</th>
            <th className="px-3 py-2">Status</th>
            <th className="px-3 py-2">Actions</th>
          </tr>
        </thead>
        <tbody>
          {users.map((u) => (
            <tr key={u.id} className="border-t border-slate-100" data-testid={`account-${u.username}`}>
              <td className="px-3 py-1.5 font-mono">{u.username}</td>
              <td className="px-3 py-1.5">{u.displayName}</td>
              <td className="px-3 py-1.5">
                <select
                  aria-label={`Role of ${u.username}`}
                  value={u.role}
                  disabled={pending || !u.canSignIn}
                  onChange={(e) => run(() => setUserRoleAction(u.id, e.target.value), `${u.username} is now ${e.target.value}.`)}
                  className={input}
                >
                  {ROLES.map((r) => (
                    <option key={r}>{r}</option>
                  ))}
                </select>
              </td>
              <td className="px-3 py-1.5">{!u.canSignIn ? 'no sign-in' : u.active ? 'active' : 'disabled'}</td>
              <td className="space-x-2 px-3 py-1.5">
                {u.canSignIn && u.id !== selfId && (
                  <button
                    type="button"
                    disabled={pending}
                    onClick={() => run(() => setUserActiveAction(u.id, !u.active), `${u.username} ${u.active ? 'disabled' : 'enabled'}.`)}
                    className="rounded border border-slate-300 px-2 py-0.5"
                  >
                    {u.active ? 'Disable' : 'Enable'}
                  </button>
                )}
                {/* An account that cannot sign in (the command line's, an importer's) has no password to reset. */}
                {u.canSignIn && (
                  <button
                    type="button"
                    disabled={pending}
                    onClick={() => {
                      const pw = window.prompt(`New password for ${u.username} (at least 8 characters)`);
                      if (pw) run(() => resetPasswordAction(u.id, pw), `Password of ${u.username} reset; their sessions were signed out.`);
                    }}
                    className="rounded border border-slate-300 px-2 py-0.5"
                  >
                    Reset password
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
