/** A fresh id for one submission: the server writes a submission once however often the same id is sent. */
export function newRequestId(): string {
  return crypto.randomUUID().replace(/-/g, '');
}
