import type { BlockList } from 'node:net';
import { dnsPromises, net } from './lazy-builtins.js';

let nonPublic: BlockList | undefined;

/** Loopback, private, link-local (cloud metadata), carrier-grade NAT, benchmark, multicast and unspecified ranges. */
function nonPublicRanges(): BlockList {
  if (nonPublic) return nonPublic;
  const list = new (net().BlockList)();
  addRanges(list);
  nonPublic = list;
  return list;
}

function addRanges(list: BlockList): void {
  for (const [range, prefix] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['224.0.0.0', 3],
  ] as const) {
    list.addSubnet(range, prefix, 'ipv4');
  }
  for (const [range, prefix] of [
    ['::', 128],
    ['::1', 128],
    ['fc00::', 7],
    ['fe80::', 10],
    ['ff00::', 8],
  ] as const) {
    list.addSubnet(range, prefix, 'ipv6');
  }
}

/** True for an address a fetch from the agent must not reach by default. Pure. */
export function isNonPublicAddress(ip: string): boolean {
  const ranges = nonPublicRanges();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return ranges.check(mapped[1]!, 'ipv4');
  const family = net().isIP(ip);
  if (family === 4) return ranges.check(ip, 'ipv4');
  if (family === 6) return ranges.check(ip, 'ipv6');
  return true;
}

/** Every address `hostname` resolves to (an IP literal resolves to itself). */
export async function addressesOf(hostname: string): Promise<string[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  return net().isIP(host) ? [host] : (await dnsPromises().lookup(host, { all: true })).map((a) => a.address);
}

/**
 * The first non-public address `hostname` resolves to, or undefined when all are public.
 * (A name can still re-resolve differently at connect time — DNS rebinding; the sandbox's egress
 * proxy connects to the very address it checked, see docs/sandbox.md.)
 */
export async function nonPublicAddressOf(hostname: string): Promise<string | undefined> {
  return (await addressesOf(hostname)).find(isNonPublicAddress);
}
