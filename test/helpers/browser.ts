// Debian's Chromium driven by playwright-core. Never downloads a browser.
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.SVC_CHROMIUM ?? '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'],
  });
}
