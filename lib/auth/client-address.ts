import net from 'node:net';
import { env } from '@/lib/env';
import { PEER_HEADER } from './peer-address';

/**
 * The client address sign-in throttling counts against. With no proxy trusted (the default) it is the socket's
 * address; with `CONCORD_TRUST_PROXY=n`, the address the n-th proxy from Concord saw, read from the right-hand end
 * of `X-Forwarded-For` (entries further left were written by whoever sent the request and prove nothing).
 * IPv6 addresses count by their /64, which one client usually holds whole. See docs/decisions/0006.
 */
export function clientAddress(headers: Headers, trustedProxies = env().CONCORD_TRUST_PROXY): string {
  const peer = headers.get(PEER_HEADER);
  if (!peer) return 'unknown'; // only when the server was started without the instrumentation hook
  const chain = [
    ...(trustedProxies > 0 ? (headers.get('x-forwarded-for') ?? '').split(',') : []).map((s) => s.trim()).filter(Boolean),
    peer,
  ];
  return addressKey(chain[Math.max(0, chain.length - 1 - trustedProxies)]);
}

/** IPv4 as is (also when mapped into IPv6), IPv6 as its /64 prefix; anything unreadable as itself, shortened. */
export function addressKey(address: string): string {
  const plain = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(plain);
  if (mapped) return mapped[1];
  if (net.isIPv4(plain)) return plain;
  if (!net.isIPv6(plain)) return plain.slice(0, 64) || 'unknown';
  const [head, tail] = plain.split('::');
  const left = head ? head.split(':') : [];
  const right = tail === undefined ? [] : tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
