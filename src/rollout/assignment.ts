import { createHash } from 'node:crypto';

/** Buckets per user population: a percentage is applied in steps of 0.01 points. */
export const BUCKETS = 10_000;

/**
 * The user's stable bucket in [0, 9999]: SHA-256 of `tenant \0 user`, first 4 bytes as an
 * unsigned integer, modulo 10 000. The same user always lands in the same bucket, so raising the
 * percentage only ever adds users to the canary. Pure.
 */
export function userBucket(tenant: string, user: string): number {
  const digest = createHash('sha256').update(`${tenant}\u0000${user}`).digest();
  return digest.readUInt32BE(0) % BUCKETS;
}

/** Percentage (0–100, two decimals) → basis points of the population (0–10 000). */
export function percentToBasisPoints(percent: number): number {
  return Math.round(percent * 100);
}

/** Whether the user is in a canary that covers `basisPoints` of the population. Pure. */
export function inCanary(tenant: string, user: string, basisPoints: number): boolean {
  return userBucket(tenant, user) < basisPoints;
}
