import http from 'node:http';
import https from 'node:https';

/**
 * The address of the socket a request came in on, as Concord stamps it on every request. `next start` hands route
 * handlers a Web `Request` without the socket, and only fills `X-Forwarded-For` with the socket's address when the
 * client did not send one itself, so that header proves nothing. This one is always overwritten, so a client
 * cannot forge it.
 */
export const PEER_HEADER = 'x-concord-peer';

let installed = false;

/** Patches Node's HTTP(S) servers, before Next sees a request, to stamp `PEER_HEADER`. Runs once per process. */
export function installPeerAddressHeader() {
  if (installed) return;
  installed = true;
  for (const Server of [http.Server, https.Server]) {
    const emit = Server.prototype.emit as (this: unknown, event: string | symbol, ...args: unknown[]) => boolean;
    Server.prototype.emit = function (this: unknown, event: string | symbol, ...args: unknown[]) {
      if (event === 'request') {
        const req = args[0] as http.IncomingMessage;
        req.headers[PEER_HEADER] = req.socket?.remoteAddress ?? '';
      }
      return emit.call(this, event, ...args);
    } as typeof Server.prototype.emit;
  }
}
