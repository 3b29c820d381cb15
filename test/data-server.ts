import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/**
 * A loopback HTTP server over a folder, for the `data fetch` tests: it counts requests per path, honours Range
 * requests when asked to, and can misbehave on chosen paths (altered bytes, a connection closed mid-body).
 */
export type DataServer = {
  url: string;
  /** Requests per relative path (without the leading slash), Range requests included. */
  requests: Map<string, number>;
  /** Range headers received, per path. */
  ranges: Map<string, string[]>;
  total(): number;
  /** Paths served with one byte flipped in the middle. */
  tamper: Set<string>;
  /** Paths whose next N responses are closed after half their body; -1 for every response. */
  cut: Map<string, number>;
  /** Answer `Range: bytes=N-` with 206 (otherwise the whole file with 200). */
  ranged: boolean;
  close(): Promise<void>;
};

export async function startDataServer(root: string, options: { ranged?: boolean } = {}): Promise<DataServer> {
  const state = {
    requests: new Map<string, number>(),
    ranges: new Map<string, string[]>(),
    tamper: new Set<string>(),
    cut: new Map<string, number>(),
    ranged: options.ranged ?? true,
  };
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).replace(/^\/+/, '');
    state.requests.set(rel, (state.requests.get(rel) ?? 0) + 1);
    const file = path.join(root, ...rel.split('/'));
    if (!rel || !file.startsWith(root) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end('not found');
      return;
    }
    let body = fs.readFileSync(file);
    if (state.tamper.has(rel)) {
      body = Buffer.from(body);
      body[body.length >> 1] ^= 0x20;
    }
    let start = 0;
    const range = req.headers.range;
    if (range) state.ranges.set(rel, [...(state.ranges.get(rel) ?? []), range]);
    const m = range ? /^bytes=(\d+)-$/.exec(range) : null;
    if (state.ranged && m && Number(m[1]) < body.length) start = Number(m[1]);
    const part = body.subarray(start);
    const headers: http.OutgoingHttpHeaders = { 'content-type': 'application/octet-stream', 'content-length': part.length };
    if (state.ranged) headers['accept-ranges'] = 'bytes';
    if (start > 0) headers['content-range'] = `bytes ${start}-${body.length - 1}/${body.length}`;
    res.writeHead(start > 0 ? 206 : 200, headers);

    const cuts = state.cut.get(rel) ?? 0;
    if (cuts !== 0) {
      if (cuts > 0) state.cut.set(rel, cuts - 1);
      // Half the body, then the socket goes away: the client sees fewer bytes than Content-Length announced.
      res.write(part.subarray(0, Math.max(1, part.length >> 1)), () => setTimeout(() => res.socket?.destroy(), 10));
      return;
    }
    res.end(part);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: state.requests,
    ranges: state.ranges,
    tamper: state.tamper,
    cut: state.cut,
    get ranged() {
      return state.ranged;
    },
    set ranged(v: boolean) {
      state.ranged = v;
    },
    total: () => [...state.requests.values()].reduce((a, b) => a + b, 0),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
