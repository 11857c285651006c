/**
 * Debian's Chromium driven by playwright-core, for the real-browser checks (the docs page,
 * the consent page, the web board). `.ci/run` installs the package when it is missing; where
 * it cannot be installed, `describeBrowser` skips its suite and says so on stderr.
 */
import * as fs from "node:fs"
import { type Browser, chromium } from "playwright-core"
import { describe } from "vitest"

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"
export const hasChromium = fs.existsSync(CHROMIUM)

/** `describe` when Chromium is here; otherwise a skipped suite and a line saying why. */
export const describeBrowser = (name: string, body: () => void) => {
  if (!hasChromium)
    process.stderr.write(
      `SKIPPED (no browser): "${name}" needs Chromium at ${CHROMIUM} (apt-get install -y chromium; .ci/run does it)\n`
    )
  return describe.skipIf(!hasChromium)(name, body)
}

export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // root in a container has no user namespace for the sandbox
    args: ["--no-sandbox", "--disable-dev-shm-usage"]
  })
