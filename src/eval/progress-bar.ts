/** A one-line progress bar redrawn in place on a TTY stream; silent elsewhere. */
export class ProgressBar {
  private readonly enabled: boolean;

  constructor(private readonly stream: NodeJS.WriteStream = process.stderr) {
    this.enabled = stream.isTTY === true;
  }

  update(done: number, total: number, label: string, failed: number): void {
    if (!this.enabled) return;
    const width = 30;
    const filled = total === 0 ? width : Math.round((done / total) * width);
    const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
    const text = `${bar} ${done}/${total} failed ${failed}  ${label}`.slice(
      0,
      (this.stream.columns ?? 100) - 1,
    );
    this.stream.write(`\r\x1b[2K${text}`);
  }

  done(): void {
    if (this.enabled) this.stream.write('\r\x1b[2K');
  }
}
