import http from 'node:http';
import https from 'node:https';

/**
 * How long a request may take to arrive in full. Node's HTTP server resets a request whose body has not been
 * received within `requestTimeout` (5 minutes by default), and `next start` has no option for it: a 500 MB import
 * over a 10 Mbit/s link (about 7 minutes), or any upload while the server is very busy, was cut off with a
 * connection reset. One hour covers the largest upload Concord accepts (4 GB) at about 10 Mbit/s; the headers
 * still have to arrive within `headersTimeout` (60 s), which is what stops clients that open connections and never
 * finish them.
 */
export const REQUEST_TIMEOUT_MS = 60 * 60_000;

let installed = false;

/** Sets `requestTimeout` on Node's HTTP(S) servers of this process when they receive their first request. */
export function lengthenRequestTimeout(ms = REQUEST_TIMEOUT_MS) {
  if (installed) return;
  installed = true;
  for (const Server of [http.Server, https.Server]) {
    const emit = Server.prototype.emit as (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
    Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
      // Node reads the server's requestTimeout each time it checks its connections.
      if (event === 'request' && this.requestTimeout !== ms) this.requestTimeout = ms;
      return emit.call(this, event, ...args);
    } as typeof Server.prototype.emit;
  }
}
