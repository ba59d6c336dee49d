// Opens a URL in the person's browser; when that is not possible the URL is printed instead.
import { print } from './output.ts';

/**
 * With `browser` false, or when no browser can be started, prints the URL for the person to open.
 * Returns true when a browser was asked to open it.
 */
export async function openInBrowser(url: string, browser: boolean): Promise<boolean> {
  if (browser) {
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
