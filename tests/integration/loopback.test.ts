import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { describe, expect, inject, it } from 'vitest';

// What `npm start` listens on, read from the kernel (Linux /proc): every listening TCP socket held by the service's
// process tree, whichever part opened it (the API, DynamoDB Local's JVM, fauxqs).

function processTree(pid: number): number[] {
  const children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
  return [pid, ...children.flatMap(processTree)];
}

function socketInodes(pids: number[]): Set<string> {
  const inodes = new Set<string>();
  for (const pid of pids)
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      const target = (() => {
        try {
          return readlinkSync(`/proc/${pid}/fd/${fd}`);
        } catch {
          return ''; // closed meanwhile
        }
      })();
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode) inodes.add(inode);
    }
  return inodes;
}

/** /proc/net/tcp{,6} addresses: hex, 32-bit words in host (little-endian) byte order. */
function decodeAddress(hex: string): string {
  const words = hex.match(/.{8}/g)!.map((w) =>
    w
      .match(/../g)!
      .reverse()
      .map((b) => Number.parseInt(b, 16)),
  );
  if (words.length === 1) return words[0]!.join('.');
  const bytes = words.flat();
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff)
    return `::ffff:${bytes.slice(12).join('.')}`;
  if (bytes.slice(0, 15).every((b) => b === 0)) return bytes[15] === 1 ? '::1' : '::';
  return bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
}

function listeningSockets(inodes: Set<string>): { address: string; port: number }[] {
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((file) =>
    readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((fields) => fields[3] === '0A' && inodes.has(fields[9]!))
      .map((fields) => {
        const [address, port] = fields[1]!.split(':');
        return { address: decodeAddress(address!), port: Number.parseInt(port!, 16) };
      }),
  );
}

const isLoopback = (address: string) => /^(127\.|::ffff:127\.|::1$)/.test(address);

const refusesConnection = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host, port, timeout: 2000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(true));
  });

describe.skipIf(process.platform !== 'linux')('what npm start opens', () => {
  const listeners = listeningSockets(socketInodes(processTree(inject('servicePid'))));

  it('listens on the API port, DynamoDB Local and fauxqs, all on loopback only', () => {
    expect(listeners.map((l) => l.port)).toContain(Number(new URL(inject('baseUrl')).port));
    expect(listeners.length).toBeGreaterThanOrEqual(3);
    for (const listener of listeners) expect(listener.address, String(listener.port)).toSatisfy(isLoopback);
  });

  it("accepts no connection on any of the machine's other addresses", async () => {
    const addresses = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a !== undefined && !a.internal && !a.address.startsWith('fe80'))
      .map((a) => a!.address);
    for (const address of addresses)
      for (const { port } of listeners) expect(await refusesConnection(address, port), `${address}:${port}`).toBe(true);
  });
});
