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
    args: [
      // root in a container has no user namespace for the sandbox
      "--no-sandbox",
      "--disable-dev-shm-usage",
      // nothing leaves this machine: every name but localhost is unknown to the browser's own
      // resolver (the test servers are reached by address, which the rule must leave alone too).
      // Without it Chromium asked the machine's nameserver for content-autofill.googleapis.com
      // and update.googleapis.com, and for fonts.googleapis.com, which the test OpenID
      // provider's pages link (counted in a network namespace whose nameserver logged queries)
      "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1, EXCLUDE [::1]"
    ]
  })
