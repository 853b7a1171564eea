/**
 * Debian's Chromium driven by playwright-core, which downloads no browser: the binary is
 * /usr/bin/chromium (`apt-get install chromium`; .ci/run installs it when missing). Each launch
 * gets a fresh profile, removed on close, and closing ends the browser process.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

export const CHROMIUM = process.env.PLAYGROUND_CHROMIUM ?? "/usr/bin/chromium";

/** The flags of every launch: no GPU, no sandbox (CI runs as root), nothing that calls home. */
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface Chromium {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<Chromium> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `no Chromium at ${CHROMIUM}: install Debian's (apt-get install -y chromium), or set PLAYGROUND_CHROMIUM`,
    );
  }
  const profile = mkdtempSync(join(tmpdir(), "ptc-chromium-"));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: FLAGS,
      viewport: { width: 1400, height: 900 },
    });
    return {
      context,
      async close() {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
}
