import 'server-only';
import { getDb, inTransaction, type Db } from '@/db/client';
import * as q from '@/db/queries/judge-endpoints';
import { judgeEndpointSchema, type JudgeEndpoint } from '@/lib/validation/judge-endpoints';
import { isStaff, type Actor } from '../actor';
import { audit } from '../accounts/audit';
import { conflict, forbidden, invalid, notFound } from '../errors';
import { parseInput } from '../parse';
import type { JudgeEndpointChoiceDto, JudgeEndpointDto } from './dto';

/*
 * The judge endpoints an admin configures (issue 21): the only URLs and key variables a run launched from the web
 * app can use. Leads see the names, models and prices; the URL and the variable's name are the admin's.
 */

function requireAdmin(actor: Actor) {
  if (actor.role !== 'admin') throw forbidden('Only an admin can configure judge endpoints.');
}

const price = (p: string | null) => (p === null ? null : Number(p));

const toDto = (e: q.EndpointRow): JudgeEndpointDto => ({
  id: e.id,
  name: e.name,
  baseUrl: e.baseUrl,
  keyEnv: e.keyEnv,
  keySet: e.keyEnv !== null && !!process.env[e.keyEnv],
  models: e.models,
  priceIn: price(e.priceIn),
  priceOut: price(e.priceOut),
  updatedAt: new Date(e.updatedAt).toISOString(),
});

const values = (v: JudgeEndpoint): q.EndpointValues => ({
  name: v.name,
  baseUrl: v.baseUrl,
  keyEnv: v.keyEnv ?? null,
  models: v.models,
  priceIn: v.priceIn === undefined ? null : String(v.priceIn),
  priceOut: v.priceOut === undefined ? null : String(v.priceOut),
});

/** What the audit log keeps of an endpoint: everything but nothing secret (the key's value is never known here). */
const auditDetail = (v: q.EndpointValues) => ({ name: v.name, baseUrl: v.baseUrl, keyEnv: v.keyEnv, models: v.models });

function assertNameFree(db: Db, name: string, id?: number) {
  const other = q.findEndpointByName(db, name);
  if (other && other.id !== id) throw invalid(`An endpoint named "${name}" exists.`, { name: 'An endpoint of this name exists.' });
}

export function listJudgeEndpoints(actor: Actor): JudgeEndpointDto[] {
  requireAdmin(actor);
  return q.listEndpoints(getDb()).map(toDto);
}

export function createJudgeEndpoint(actor: Actor, input: unknown): JudgeEndpointDto {
  requireAdmin(actor);
  const v = values(parseInput(judgeEndpointSchema, input));
  const db = getDb();
  return inTransaction(db, () => {
    assertNameFree(db, v.name);
    const id = q.insertEndpoint(db, v, actor.id);
    audit(db, { userId: actor.id, action: 'judge_endpoint.create', objectId: id, detail: auditDetail(v) });
    return toDto(q.findEndpoint(db, id)!);
  });
}

/** Replaces an endpoint's settings; runs that use it read the new URL and key variable when their runner next starts. */
export function updateJudgeEndpoint(actor: Actor, id: number, input: unknown): JudgeEndpointDto {
  requireAdmin(actor);
  const v = values(parseInput(judgeEndpointSchema, input));
  const db = getDb();
  return inTransaction(db, () => {
    if (!q.findEndpoint(db, id)) throw notFound('That judge endpoint');
    assertNameFree(db, v.name, id);
    q.updateEndpoint(db, id, v, actor.id);
    audit(db, { userId: actor.id, action: 'judge_endpoint.update', objectId: id, detail: auditDetail(v) });
    return toDto(q.findEndpoint(db, id)!);
  });
}

/** Removes an endpoint no unfinished run uses; finished runs keep the URL they used, recorded at launch. */
export function deleteJudgeEndpoint(actor: Actor, id: number): void {
  requireAdmin(actor);
  const db = getDb();
  inTransaction(db, () => {
    const e = q.findEndpoint(db, id);
    if (!e) throw notFound('That judge endpoint');
    const unfinished = q.unfinishedRunsOfEndpoint(db, id);
    if (unfinished.length)
      throw conflict(`The endpoint "${e.name}" is used by runs that are not over (${unfinished.join(', ')}); cancel them first.`);
    q.deleteEndpoint(db, id);
    audit(db, { userId: actor.id, action: 'judge_endpoint.delete', objectId: id, detail: { name: e.name } });
  });
}

/** The endpoints a lead may launch a run against, by name, with their models and prices. Leads and admins. */
export function judgeEndpointChoices(actor: Actor): JudgeEndpointChoiceDto[] {
  if (!isStaff(actor)) throw forbidden();
  return q.listEndpoints(getDb()).map((e) => ({ name: e.name, models: e.models, priceIn: price(e.priceIn), priceOut: price(e.priceOut) }));
}

/**
 * The configured endpoint a launch names, with the model checked against its list; refused with a field message
 * for the form otherwise.
 */
export function endpointForLaunch(db: Db, name: string, model: string): q.EndpointRow {
  const e = q.findEndpointByName(db, name);
  if (!e)
    throw invalid(`No judge endpoint is named "${name}"; an admin configures them.`, {
      endpoint: 'Choose an endpoint an admin configured.',
    });
  if (!e.models.includes(model))
    throw invalid(`The endpoint "${name}" does not offer the model "${model}".`, {
      model: `Choose one of the models of ${name}: ${e.models.join(', ')}.`,
    });
  return e;
}
