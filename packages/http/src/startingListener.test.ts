import type { AddressInfo } from "node:net"
import { describe, expect, it } from "vitest"
import { createStartingServer } from "./startingListener.ts"

describe("createStartingServer", () => {
  it("answers 503 starting until the application's handler is attached, then only that handler answers", async () => {
    const server = createStartingServer({})
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/health`
    try {
      const before = await fetch(url)
      expect(before.status).toBe(503)
      expect(before.headers.get("retry-after")).toBe("1")
      expect(await before.json()).toEqual({ error: "starting" })
      server.on("request", (_req, res) => res.end("ready"))
      const after = await fetch(url)
      expect(after.status).toBe(200)
      expect(await after.text()).toBe("ready")
    } finally {
      server.close()
    }
  })
})
