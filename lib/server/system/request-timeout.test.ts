import http from 'node:http';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { lengthenRequestTimeout } from './request-timeout';

/** A server that reads the whole body and answers 200, with a short requestTimeout checked often. */
function server(): Promise<{ port: number; close: () => void }> {
  const s = http.createServer({ requestTimeout: 600, connectionsCheckingInterval: 100 }, (req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  return new Promise((resolve) =>
    s.listen(0, '127.0.0.1', () => resolve({ port: (s.address() as net.AddressInfo).port, close: () => s.close() })),
  );
}

/** Sends a 20-byte body one byte every 75 ms (1.5 s in all) and returns the status line, or 'reset'. */
function slowUpload(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => (answer += d.toString()));
    socket.on('error', () => resolve('reset'));
    socket.on('close', () => resolve(answer ? answer.split('\r\n')[0] : 'reset'));
    socket.write('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 20\r\nConnection: close\r\n\r\n');
    let sent = 0;
    const timer = setInterval(() => {
      if (socket.destroyed) return clearInterval(timer);
      socket.write('a');
      if (++sent === 20) clearInterval(timer);
    }, 75);
  });
}

describe('the request timeout', () => {
  it("cuts off a slow upload with Node's setting, and lets it finish once lengthened", async () => {
    const before = await server();
    try {
      // Node's own behaviour, which a long upload ran into.
      expect(await slowUpload(before.port)).not.toMatch(/200/);
    } finally {
      before.close();
    }
    lengthenRequestTimeout(10_000);
    const after = await server();
    try {
      expect(await slowUpload(after.port)).toBe('HTTP/1.1 200 OK');
    } finally {
      after.close();
    }
  });
});
