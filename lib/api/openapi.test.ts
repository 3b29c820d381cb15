import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from './openapi';
import { OPERATIONS } from './operations';

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document by an independent validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(openApiDocument() as unknown as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('lists every operation once, with its path parameters and the bearer scheme', () => {
    const doc = openApiDocument();
    const listed = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
    expect(listed.sort()).toEqual(
      Object.values(OPERATIONS)
        .map((o) => `${o.method} ${o.path}`)
        .sort(),
    );
    const getStudy = doc.paths['/api/v1/studies/{id}'].get as { parameters: { name: string; in: string; required: boolean }[] };
    expect(getStudy.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});
