import { describe, expect, it } from 'vitest';
import { makeUser, useTestDatabase } from '@/test/db';
import { health } from './health';

useTestDatabase();

describe('health (issue 26, point 8)', () => {
  it('tells someone signed out only that the server answers, not how backups stand', async () => {
    expect(health(null)).toEqual({ ok: true });
    const annotator = await makeUser('health-ann');
    expect(health(annotator)).toMatchObject({ ok: true, backup: { scheduled: false, state: 'off' } });
  });
});
