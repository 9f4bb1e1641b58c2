import type { Command } from 'commander';

/**
 * A CLI command module. `register` only declares options; the action imports its implementation
 * lazily so a one-shot command loads only what it needs.
 */
export interface CommandModule {
  register(program: Command): void;
}
