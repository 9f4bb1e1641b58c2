import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium: the only browser the console tests use (none is downloaded). */
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
if (!hasChromium)
  console.warn(`[skip] ${CHROMIUM} not found — web console browser tests skipped (apt-get install chromium)`);

/**
 * Headless, without the sandbox (tests run as root), the network to anything but the page's own
 * server off, and rendering pinned so screenshots repeat: no GPU, sRGB, no font hinting or
 * subpixel text, one device pixel per CSS pixel.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--force-color-profile=srgb',
      '--font-render-hinting=none',
      '--disable-font-subpixel-positioning',
      '--disable-lcd-text',
      '--force-device-scale-factor=1',
    ],
  });
}
