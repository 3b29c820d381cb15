import { describe, expect, it } from 'vitest';
import { chatCompletionsUrl, endpointUrlRefusal, judgeEndpointSchema, keyVariableRefusal } from './judge-endpoints';

describe('the key variable of a judge endpoint', () => {
  it('is a plain variable name that is none of Concord, Node, sign-in or system variables', () => {
    for (const ok of ['OPENAI_API_KEY', 'LAB_VLLM_TOKEN', 'anthropic_key']) expect(keyVariableRefusal(ok), ok).toBeNull();
    for (const bad of ['AUTH_SECRET', 'AUTH_URL', 'NEXTAUTH_SECRET', 'CONCORD_DB', 'Concord_backup_dir', 'NODE_OPTIONS', 'NPM_TOKEN'])
      expect(keyVariableRefusal(bad), bad).toMatch(/cannot hold an endpoint's key/);
    for (const bad of ['PATH', 'HOME', 'USER', 'SHELL', 'PWD', 'TZ', 'LANG', 'LC_ALL', 'LD_PRELOAD', 'SSH_AUTH_SOCK', 'TMPDIR'])
      expect(keyVariableRefusal(bad), bad).toMatch(/describes the machine/);
    for (const bad of ['sk-abc123', '1KEY', 'A B', ''])
      expect(keyVariableRefusal(bad), bad).toMatch(/must be the name of an environment variable/);
  });
});

describe('the base URL of a judge endpoint', () => {
  it('is http(s), without query, fragment or credentials; loopback and private addresses are allowed', () => {
    for (const ok of ['http://127.0.0.1:8000/v1', 'http://10.0.0.5/v1/', 'https://api.openai.com/v1', 'http://[::1]:11434/v1'])
      expect(endpointUrlRefusal(ok), ok).toBeNull();
    expect(endpointUrlRefusal('http://127.0.0.1:9000/admin?x=')).toMatch(/query/);
    expect(endpointUrlRefusal('http://127.0.0.1:9000/admin?')).toMatch(/query/);
    expect(endpointUrlRefusal('http://127.0.0.1:9000/admin#')).toMatch(/fragment/);
    expect(endpointUrlRefusal('http://u:p@host/v1')).toMatch(/user name or password/);
    for (const bad of ['javascript:alert(1)', 'file:///etc/passwd', 'ftp://x/', 'not a url'])
      expect(endpointUrlRefusal(bad), bad).toMatch(/http/);
  });

  it('gets /chat/completions on its path only, never after a query or fragment', () => {
    expect(chatCompletionsUrl('http://127.0.0.1:8000/v1/')).toBe('http://127.0.0.1:8000/v1/chat/completions');
    expect(chatCompletionsUrl('https://api.openai.com/v1')).toBe('https://api.openai.com/v1/chat/completions');
    // a URL stored before the rule (a launch row): the query and fragment are dropped, not kept in front
    expect(chatCompletionsUrl('http://127.0.0.1:9000/admin?x=')).toBe('http://127.0.0.1:9000/admin/chat/completions');
    expect(chatCompletionsUrl('http://127.0.0.1:9000/admin#')).toBe('http://127.0.0.1:9000/admin/chat/completions');
  });
});

describe('a judge endpoint as the admin form sends it', () => {
  it('reads models one per line or comma-separated, prices as decimals, an empty key variable as none', () => {
    expect(
      judgeEndpointSchema.parse({
        name: ' lab ',
        baseUrl: 'http://127.0.0.1:8000/v1',
        keyEnv: ' ',
        models: 'a\nb, c\n\n',
        priceIn: '2.5',
        priceOut: '',
      }),
    ).toEqual({
      name: 'lab',
      baseUrl: 'http://127.0.0.1:8000/v1',
      keyEnv: undefined,
      models: ['a', 'b', 'c'],
      priceIn: 2.5,
      priceOut: undefined,
    });
    const r = judgeEndpointSchema.safeParse({ name: 'x', baseUrl: 'http://h/v1', models: 'a\na', priceIn: '-1' });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.path.join('.')).sort()).toEqual(['models', 'priceIn']);
    expect(judgeEndpointSchema.safeParse({ name: 'x', baseUrl: 'http://h/v1', models: ' ' }).success).toBe(false);
  });
});
