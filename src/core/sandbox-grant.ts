/**
 * What a call's processes may do, as the approval decided it (docs/sandbox.md):
 * - `read-only`: what runs without an ask — the filesystem read-only but a private tmpfs, only the
 *   workspace and declared read roots visible, no network;
 * - `workspace-write`: an approved (or rule-allowed) command — the workspace writable except the
 *   engine's state and VCS control paths, still no network;
 * - `network`: `workspace-write` plus egress through the allowlisting proxy, only when a web
 *   permission rule allows domains;
 * - `unconfined`: a person approved running the command although no sandbox can be created here.
 */
export const SANDBOX_PROFILES = ['read-only', 'workspace-write', 'network', 'unconfined'] as const;
export type SandboxProfile = (typeof SANDBOX_PROFILES)[number];

/** The profile a stage grants a call, and for `network` the domains the proxy lets through. */
export interface SandboxGrant {
  readonly profile: SandboxProfile;
  /** Domains (`example.com` also covers its subdomains; `*` any public host). `network` only. */
  readonly allowedDomains?: readonly string[];
  /** Domains refused even when an allowed entry covers them. */
  readonly deniedDomains?: readonly string[];
}
