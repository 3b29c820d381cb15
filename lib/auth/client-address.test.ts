import { describe, expect, it } from 'vitest';
import { addressKey, clientAddress } from './client-address';
import { PEER_HEADER } from './peer-address';

const from = (peer: string | null, forwarded?: string) =>
  new Headers({ ...(peer === null ? {} : { [PEER_HEADER]: peer }), ...(forwarded ? { 'x-forwarded-for': forwarded } : {}) });

describe('client address', () => {
  it('is the socket address when no proxy is trusted, whatever X-Forwarded-For claims', () => {
    expect(clientAddress(from('203.0.113.5', '198.51.100.1'), 0)).toBe('203.0.113.5');
    expect(clientAddress(from(null, '198.51.100.1'), 0)).toBe('unknown');
  });

  it('behind n trusted proxies, is the entry the n-th proxy wrote, not what the client put in front', () => {
    // The client forged 1.2.3.4; the proxy (10.0.0.2) appended the address it saw.
    expect(clientAddress(from('10.0.0.2', '1.2.3.4, 203.0.113.5'), 1)).toBe('203.0.113.5');
    expect(clientAddress(from('10.0.0.3', '1.2.3.4, 203.0.113.5, 10.0.0.2'), 2)).toBe('203.0.113.5');
    expect(clientAddress(from('10.0.0.2'), 1)).toBe('10.0.0.2'); // a proxy that sends no header: all share its address
  });

  it('counts IPv6 clients by their /64 and IPv4-mapped addresses as IPv4', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::5')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});
