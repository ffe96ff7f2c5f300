import type { LookupAddress, LookupOptions } from 'node:dns';
import { get, createServer } from 'node:http';
import { isIP, type AddressInfo, type LookupFunction } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import {
  AddressNotPublicError,
  checkWebhookUrl,
  guardedLookup,
  isLoopbackAddress,
  isPublicAddress,
  type ResolveAll,
} from '../../../shared/webhooks/address-guard.ts';

describe('isPublicAddress for IPv4', () => {
  it.each([
    ['0.0.0.0', 'this network'],
    ['0.255.255.255', 'this network'],
    ['10.0.0.0', 'private 10/8'],
    ['10.255.255.255', 'private 10/8'],
    ['100.64.0.0', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.0.1', 'link-local'],
    ['169.254.169.254', 'the cloud metadata service'],
    ['172.16.0.0', 'private 172.16/12'],
    ['172.31.255.255', 'private 172.16/12'],
    ['192.0.0.1', 'IETF protocol assignments'],
    ['192.0.2.10', 'documentation TEST-NET-1'],
    ['192.88.99.1', '6to4 relay anycast'],
    ['192.168.0.1', 'private 192.168/16'],
    ['192.168.255.255', 'private 192.168/16'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.51.100.7', 'documentation TEST-NET-2'],
    ['203.0.113.9', 'documentation TEST-NET-3'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.255', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
  ])('rejects %s (%s)', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '9.255.255.255',
    '11.0.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.0.3.1',
    '192.167.255.255',
    '192.169.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '192.175.48.1', // AS112 anycast DNS sink
    '192.52.193.1', // AMT relay anycast
  ])('accepts the public address %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });
});

describe('isPublicAddress for IPv6', () => {
  it.each([
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback, written out'],
    ['::7f00:1', 'IPv4-compatible (deprecated)'],
    ['100::1', 'discard-only'],
    ['fc00::1', 'unique local'],
    ['fd12:3456::1', 'unique local'],
    ['fd00:ec2::254', 'the EC2 IPv6 metadata service'],
    ['FD00:EC2::254', 'the EC2 metadata service in upper case'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local with a zone'],
    ['febf:ffff::1', 'link-local'],
    ['fec0::1', 'site-local (deprecated)'],
    ['ff02::1', 'multicast'],
    ['ff0e::101', 'multicast'],
    ['2001::1', 'Teredo'],
    ['2001:2::1', 'benchmarking'],
    ['2001:db8::1', 'documentation'],
    ['2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', 'documentation'],
    ['2002:c000:204::1', '6to4'],
    ['3fff::1', 'documentation (RFC 9637)'],
    ['64:ff9b:1::1', 'local-use NAT64'],
    ['5f00::1', 'outside global unicast'],
    ['4000::1', 'outside global unicast'],
    ['1::1', 'outside global unicast'],
    ['2001:3::1', 'AMT relay (inside the IETF block)'],
    ['2001:20::1', 'ORCHIDv2'],
    ['2001:30::1', 'drone remote ID tags'],
    ['2001:10::1', 'deprecated ORCHID'],
  ])('rejects %s (%s)', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each([
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '2a00:1450:4001:830::200e',
    '2c0f:fb50:4002::1',
    '2001:200::1',
  ])('accepts the public address %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });
});

describe('isPublicAddress for IPv4 inside IPv6', () => {
  it.each([
    ['::ffff:127.0.0.1', 'mapped loopback'],
    ['::ffff:7f00:1', 'mapped loopback in hex'],
    ['::ffff:10.1.2.3', 'mapped private'],
    ['::ffff:169.254.169.254', 'mapped metadata service'],
    ['::ffff:a9fe:a9fe', 'mapped metadata service in hex'],
    ['0:0:0:0:0:ffff:192.168.1.1', 'mapped private, written out'],
    ['64:ff9b::127.0.0.1', 'NAT64 loopback'],
    ['64:ff9b::a00:1', 'NAT64 private in hex'],
    ['64:ff9b::169.254.169.254', 'NAT64 metadata service'],
    ['64:ff9b::100.64.0.1', 'NAT64 carrier-grade NAT'],
    ['2002:7f00:1::1', '6to4 loopback'],
    ['2002:a9fe:a9fe::1', '6to4 metadata service'],
    ['2002:c0a8:101::', '6to4 private'],
    ['2002:e000:1::1', '6to4 multicast'],
    ['2002:ffff:ffff::1', '6to4 broadcast'],
    ['::ffff:0.0.0.0', 'mapped unspecified'],
    ['::ffff:198.18.0.1', 'mapped benchmarking'],
    ['64:ff9b::240.0.0.1', 'NAT64 reserved'],
    ['::ffff:0:a00:1', 'IPv4-translated (RFC 6145)'],
  ])('rejects %s (%s)', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each(['::ffff:8.8.8.8', '::ffff:808:808', '64:ff9b::8.8.8.8', '64:ff9b::101:101', '2002:808:808::1'])(
    'accepts %s, which reaches a public IPv4 host',
    (ip) => {
      expect(isPublicAddress(ip)).toBe(true);
    },
  );
});

describe('isPublicAddress for text that is not an address', () => {
  it.each([
    '',
    'example.com',
    'localhost',
    '1.2.3',
    '256.1.1.1',
    '010.0.0.1',
    '1.2.3.4.5',
    ':::1',
    '[::1]',
    '8.8.8.8/32',
  ])('fails closed for %j', (text) => {
    expect(isPublicAddress(text)).toBe(false);
  });
});

describe('isLoopbackAddress', () => {
  it.each(['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1', '64:ff9b::127.0.0.1', '2002:7f00:1::1'])(
    'recognises %s',
    (ip) => {
      expect(isLoopbackAddress(ip)).toBe(true);
    },
  );

  it.each(['10.0.0.1', '::', '8.8.8.8', 'fe80::1', 'localhost', '128.0.0.1'])('does not treat %s as loopback', (ip) => {
    expect(isLoopbackAddress(ip)).toBe(false);
  });
});

describe('checkWebhookUrl', () => {
  it.each([
    'https://example.com/hooks/pets',
    'https://hooks.example.com:8443/x?y=1',
    'https://8.8.8.8/hook',
    'https://[2606:4700:4700::1111]/hook',
    'https://internal.corp.example/hook',
  ])('accepts %s (host names are judged again at connect time)', (url) => {
    expect(checkWebhookUrl(url)).toEqual({ ok: true, url: new URL(url).href });
  });

  it('returns the normalised URL', () => {
    expect(checkWebhookUrl('HTTPS://Example.COM/a/../hook')).toEqual({ ok: true, url: 'https://example.com/hook' });
  });

  it.each(['not a url', '', '/relative/path', 'https://'])('rejects %j as invalid', (url) => {
    expect(checkWebhookUrl(url)).toEqual({ ok: false, reason: 'invalid_url' });
  });

  it.each([
    'http://example.com/hook',
    'ftp://example.com/hook',
    'javascript:alert(1)',
    'file:///etc/passwd',
    'ws://example.com',
  ])('rejects the scheme of %s', (url) => {
    expect(checkWebhookUrl(url)).toEqual({ ok: false, reason: 'unsupported_scheme' });
  });

  it.each([
    'https://user:secret@example.com/hook',
    'https://user@example.com/hook',
    'https://:secret@example.com/hook',
  ])('rejects credentials in %s', (url) => {
    expect(checkWebhookUrl(url)).toEqual({ ok: false, reason: 'credentials_in_url' });
  });

  it.each([
    'https://127.0.0.1/hook',
    'https://10.0.0.5/hook',
    'https://169.254.169.254/latest/meta-data/',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[fd00:ec2::254]/hook',
    'https://[fe80::1]/hook',
    'https://[64:ff9b::a9fe:a9fe]/hook',
    'https://2130706433/hook',
    'https://0x7f.1/hook',
    'https://127.1/hook',
    'https://0/hook',
    'https://0177.0.0.1/hook',
    'https://127.0.0.1./hook',
    'https://localhost/hook',
    'https://LOCALHOST:8443/hook',
    'https://localhost./hook',
    'https://api.localhost/hook',
  ])('rejects %s as not public', (url) => {
    expect(checkWebhookUrl(url)).toEqual({ ok: false, reason: 'non_public_address' });
  });

  describe('with allowLoopback for local development', () => {
    const allowLoopback = { allowLoopback: true };

    it.each([
      'http://localhost:3000/hook',
      'http://127.0.0.1:8080/hook',
      'http://127.9.9.9/hook',
      'http://[::1]:8080/hook',
      'https://localhost/hook',
      'https://127.0.0.1/hook',
      'https://example.com/hook',
    ])('accepts %s', (url) => {
      expect(checkWebhookUrl(url, allowLoopback).ok).toBe(true);
    });

    it.each(['http://example.com/hook', 'http://10.0.0.1/hook', 'http://8.8.8.8/hook'])(
      'still rejects plain http to %s',
      (url) => {
        expect(checkWebhookUrl(url, allowLoopback)).toEqual({ ok: false, reason: 'unsupported_scheme' });
      },
    );

    it.each(['https://10.0.0.1/hook', 'https://169.254.169.254/', 'https://[fd00::1]/'])(
      'still rejects the non-loopback internal %s',
      (url) => {
        expect(checkWebhookUrl(url, allowLoopback)).toEqual({ ok: false, reason: 'non_public_address' });
      },
    );

    it('still rejects credentials', () => {
      expect(checkWebhookUrl('http://user:pw@localhost:3000/', allowLoopback)).toEqual({
        ok: false,
        reason: 'credentials_in_url',
      });
    });
  });
});

type LookupResult = {
  error: NodeJS.ErrnoException | null;
  address: string | LookupAddress[];
  family: number | undefined;
};

function fakeDns(records: Record<string, string[]>) {
  return vi.fn<ResolveAll>((hostname, _options, callback) => {
    const addresses = records[hostname];
    if (addresses === undefined) {
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
      return;
    }
    callback(
      null,
      addresses.map((address) => ({ address, family: isIP(address) })),
    );
  });
}

function lookupWith(lookup: LookupFunction, hostname: string, options: LookupOptions = {}): Promise<LookupResult> {
  return new Promise((resolve) => {
    lookup(hostname, options, (error, address, family) => resolve({ error, address, family }));
  });
}

const records = {
  'receiver.example': ['93.184.216.34'],
  'dual.example': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'metadata.example': ['169.254.169.254'],
  'rebind.example': ['93.184.216.34', '10.0.0.7'],
  'mapped.example': ['::ffff:10.0.0.7'],
  'nat64.example': ['64:ff9b::a9fe:a9fe'],
  'ula.example': ['fd00:ec2::254'],
  localhost: ['127.0.0.1', '::1'],
  'mixed-loopback.example': ['127.0.0.1', '192.168.1.1'],
  'empty.example': [],
};

describe('guardedLookup', () => {
  it('returns the first address and its family for a single-address lookup', async () => {
    const lookup = guardedLookup({ resolveAll: fakeDns(records) });
    expect(await lookupWith(lookup, 'dual.example')).toEqual({ error: null, address: '93.184.216.34', family: 4 });
  });

  it('returns every address when the caller asks for all of them', async () => {
    const lookup = guardedLookup({ resolveAll: fakeDns(records) });
    const result = await lookupWith(lookup, 'dual.example', { all: true });
    expect(result.error).toBeNull();
    expect(result.address).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
    ]);
  });

  it('always resolves every address and passes the caller options on', async () => {
    const resolveAll = fakeDns(records);
    await lookupWith(guardedLookup({ resolveAll }), 'receiver.example', { family: 4, hints: 32 });
    expect(resolveAll).toHaveBeenCalledWith(
      'receiver.example',
      { family: 4, hints: 32, all: true },
      expect.any(Function),
    );
  });

  it.each([
    ['metadata.example', '169.254.169.254'],
    ['mapped.example', '::ffff:10.0.0.7'],
    ['nat64.example', '64:ff9b::a9fe:a9fe'],
    ['ula.example', 'fd00:ec2::254'],
    ['localhost', '127.0.0.1'],
  ])('refuses %s, which resolves to %s', async (hostname, address) => {
    const { error } = await lookupWith(guardedLookup({ resolveAll: fakeDns(records) }), hostname);
    expect(error).toBeInstanceOf(AddressNotPublicError);
    expect(error).toMatchObject({ code: 'EADDRNOTPUBLIC', hostname, address });
  });

  it('refuses a name when any one of its addresses is internal', async () => {
    const { error } = await lookupWith(guardedLookup({ resolveAll: fakeDns(records) }), 'rebind.example', {
      all: true,
    });
    expect(error).toMatchObject({ code: 'EADDRNOTPUBLIC', address: '10.0.0.7' });
  });

  it('passes resolver errors through unchanged', async () => {
    const { error } = await lookupWith(guardedLookup({ resolveAll: fakeDns(records) }), 'missing.example');
    expect(error).toMatchObject({ code: 'ENOTFOUND' });
  });

  it('reports a name without addresses as not found', async () => {
    const { error } = await lookupWith(guardedLookup({ resolveAll: fakeDns(records) }), 'empty.example');
    expect(error).toMatchObject({ code: 'ENOTFOUND', hostname: 'empty.example' });
  });

  it('allows loopback addresses when allowLoopback is set', async () => {
    const lookup = guardedLookup({ allowLoopback: true, resolveAll: fakeDns(records) });
    expect(await lookupWith(lookup, 'localhost')).toEqual({ error: null, address: '127.0.0.1', family: 4 });
  });

  it('still refuses private addresses next to loopback ones when allowLoopback is set', async () => {
    const lookup = guardedLookup({ allowLoopback: true, resolveAll: fakeDns(records) });
    const { error } = await lookupWith(lookup, 'mixed-loopback.example');
    expect(error).toMatchObject({ code: 'EADDRNOTPUBLIC', address: '192.168.1.1' });
  });

  it('stops node:http before it connects to an internal address', async () => {
    const server = createServer((_req, res) => res.end('reached'));
    const connections = vi.fn();
    server.on('connection', connections);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const resolveAll = fakeDns({ 'receiver.test': ['127.0.0.1'] });

    const request = (allowLoopback: boolean): Promise<string> =>
      new Promise((resolve, reject) => {
        get({ host: 'receiver.test', port, path: '/', lookup: guardedLookup({ allowLoopback, resolveAll }) }, (res) => {
          res.setEncoding('utf8');
          let body = '';
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve(body));
        }).on('error', reject);
      });

    try {
      await expect(request(false)).rejects.toMatchObject({ code: 'EADDRNOTPUBLIC' });
      expect(connections).not.toHaveBeenCalled();
      await expect(request(true)).resolves.toBe('reached');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
