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

  it('describes streamed imports and downloads as files of their media types, not JSON', () => {
    const doc = openApiDocument();
    type Op = { requestBody?: { content: Record<string, unknown> }; responses: Record<string, { content?: Record<string, unknown> }> };
    const op = (path: string, method: string) => (doc.paths[path] as Record<string, Op>)[method];
    for (const path of ['/api/v1/studies/{id}/items', '/api/v1/studies/{id}/annotations', '/api/v1/studies/{id}/judge-runs']) {
      const body = op(path, 'post').requestBody!.content;
      expect(Object.keys(body)).toContain('application/x-ndjson');
      expect(body['application/json']).toBeUndefined();
      expect(op(path, 'post').responses['415']).toBeDefined();
      expect(Object.keys(op(path, 'post').responses['200'].content!)).toEqual(['application/json']);
    }
    const download = op('/api/v1/studies/{id}/ground-truth', 'get').responses['200'].content!;
    expect(Object.keys(download).sort()).toEqual(['application/x-ndjson', 'text/csv']);
    expect(op('/api/v1/studies/{id}/next', 'get').responses['415']).toBeUndefined();
  });
});
