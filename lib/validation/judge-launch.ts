import { z } from 'zod';
// Before any schema is built: in the browser, zod must not try `new Function` (see common.ts).
import './common';
import { endpointNameSchema } from './judge-endpoints';
import { judgeLaunchSchema } from './judge-template';

/**
 * A judge run as a lead launches it (the web app): an admin-configured endpoint chosen by NAME and one of its
 * models. No URL, no key variable and no prices: those are the endpoint's. Unknown fields are refused, so a
 * form that still sends `apiKeyEnv` or a URL is told so rather than ignored.
 */
export const judgeLaunchByNameSchema = judgeLaunchSchema.omit({ endpoint: true, apiKeyEnv: true, priceIn: true, priceOut: true }).extend({
  endpoint: endpointNameSchema,
  model: z.string({ error: 'Choose a model.' }).trim().min(1, { error: 'Choose a model.' }).max(200),
});
export type JudgeLaunchByNameInput = z.input<typeof judgeLaunchByNameSchema>;
