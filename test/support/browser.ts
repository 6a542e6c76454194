// A headless browser for the tests that must see a page as a user does: on Linux x64 and arm64 the
// Chromium of the @sparticuz/chromium npm package (no download, works offline), elsewhere an installed
// Chrome, Chromium or Edge, or whichever PETSTORE_BROWSER names. Without one the tests fail with one
// line saying what to install: a skipped browser test would pass without having looked at the page.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import type { Browser, LaunchOptions } from 'puppeteer-core';

const BROWSER_VARIABLE = 'PETSTORE_BROWSER';

export type BrowserHost = {
  platform: NodeJS.Platform;
  arch: string;
  env: NodeJS.ProcessEnv;
  exists?: (path: string) => boolean;
};

/** Where Chrome, Chromium and Edge install themselves on a platform without the npm package's build. */
function installedBrowsers({ platform, env }: BrowserHost): string[] {
  if (platform === 'darwin') {
    const apps = ['Google Chrome', 'Chromium', 'Microsoft Edge'].map(
      (name) => `${name}.app/Contents/MacOS/${name}`,
    );
    return ['/Applications', join(env.HOME ?? '', 'Applications')].flatMap((dir) =>
      apps.map((app) => join(dir, app)),
    );
  }
  if (platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter(
      (root): root is string => Boolean(root),
    );
    const apps = ['Google\\Chrome\\Application\\chrome.exe', 'Microsoft\\Edge\\Application\\msedge.exe'];
    return roots.flatMap((root) => apps.map((app) => `${root}\\${app}`));
  }
  return ['google-chrome', 'google-chrome-stable', 'chromium', 'chromium-browser', 'microsoft-edge'].map(
    (name) => `/usr/bin/${name}`,
  );
}

export const NO_BROWSER =
  `No browser for the browser tests: install Google Chrome, Chromium or Microsoft Edge, ` +
  `or set ${BROWSER_VARIABLE} to the path of a Chrome-compatible browser.`;

/**
 * Which browser to launch: the named one, else the npm package's Chromium where it has a build,
 * else an installed one. Throws NO_BROWSER, without a stack, when there is none.
 */
export function findBrowser(host: BrowserHost): { bundled: true } | { executablePath: string } {
  const { platform, arch, env, exists = existsSync } = host;
  const named = env[BROWSER_VARIABLE];
  if (named) {
    if (exists(named)) return { executablePath: named };
    throw Object.assign(new Error(`${BROWSER_VARIABLE} names ${named}, which does not exist.`), {
      stack: '',
    });
  }
  if (platform === 'linux' && (arch === 'x64' || arch === 'arm64')) return { bundled: true };
  const executablePath = installedBrowsers(host).find((path) => exists(path));
  if (executablePath) return { executablePath };
  throw Object.assign(new Error(NO_BROWSER), { stack: '' });
}

export async function launchBrowser(): Promise<Browser> {
  const found = findBrowser({ platform: process.platform, arch: process.arch, env: process.env });
  let options: LaunchOptions;
  if ('bundled' in found) {
    // Imported only here: the package unpacks its Chromium into the temporary folder on first use.
    const { default: chromium } = await import('@sparticuz/chromium');
    // That build is headless-only and runs without the sandbox (which needs a setuid helper it lacks).
    options = { executablePath: await chromium.executablePath(), headless: 'shell', args: ['--no-sandbox'] };
  } else {
    // Chrome refuses its sandbox to root (a container); the pages tested here are the project's own.
    const root = process.getuid?.() === 0;
    options = { executablePath: found.executablePath, headless: true, args: root ? ['--no-sandbox'] : [] };
  }
  return puppeteer.launch(options);
}
