// Opens a URL in the person's browser; when that is not possible the URL is printed instead.
import { print } from './output.ts';

/**
 * False on a Linux or BSD host with no graphical session (SSH, a container, CI): xdg-open starts
 * there and reports success, though no browser can appear.
 */
function canShowBrowser(): boolean {
  if (process.platform === 'darwin' || process.platform === 'win32') return true;
  const env = process.env;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY || env.WSL_DISTRO_NAME);
}

/**
 * With `browser` false, or when no browser can be started, prints the URL for the person to open.
 * Returns true when a browser was asked to open it.
 */
export async function openInBrowser(url: string, browser: boolean): Promise<boolean> {
  if (browser && canShowBrowser()) {
    try {
      const { default: open } = await import('open'); // loaded only when needed: keeps startup fast
      await open(url);
      print(`Opened ${url} in your browser.`);
      return true;
    } catch {
      // No browser here (headless host, no xdg-open): fall back to printing.
    }
  }
  print(`Open this URL in a browser: ${url}`);
  return false;
}
