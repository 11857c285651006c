/**
 * The service's version, from the root package.json: bundled into dist/ at build time, read
 * from the file when running from sources (tests), so `GET /api/v1` and `/ready` name the
 * release that is running.
 */
import rootPackage from "../../../../package.json" with { type: "json" }

export const serviceVersion: string = rootPackage.version
