/**
 * electron-updater's own code, run without Electron: its GenericProvider fetches and parses the
 * channel file and resolves `files[].url` against the feed base, MacUpdater's own arch filter
 * and zip choice pick the file, and builder-util-runtime's HttpExecutor downloads it, following
 * redirects (dropping X-API-Key across origins) and checking the sha512 as an app would. Only
 * the transport is swapped: Electron's `net` for Node's `http`.
 */
import type { UpdateInfo } from "builder-util-runtime"
import * as fs from "node:fs"
import * as http from "node:http"
import * as https from "node:https"
import { createRequire } from "node:module"
import * as os from "node:os"
import * as path from "node:path"

const require = createRequire(import.meta.url)
const runtime = require("builder-util-runtime") as typeof import("builder-util-runtime")
const { GenericProvider } =
  require("electron-updater/out/providers/GenericProvider.js") as typeof import("electron-updater/out/providers/GenericProvider.js")
const { findFile } =
  require("electron-updater/out/providers/Provider.js") as typeof import("electron-updater/out/providers/Provider.js")
const { MacUpdater } =
  require("electron-updater/out/MacUpdater.js") as typeof import("electron-updater/out/MacUpdater.js")

/** ElectronHttpExecutor with Node's http instead of Electron's net (its `download` is copied as is). */
class NodeHttpExecutor extends runtime.HttpExecutor<http.ClientRequest> {
  createRequest(options: any, callback: (response: any) => void): http.ClientRequest {
    return (options.protocol === "https:" ? https : http).request(options, callback)
  }

  download(url: URL, destination: string, options: any): Promise<string> {
    return options.cancellationToken.createPromise(
      (resolve: (v: string) => void, reject: (e: Error) => void, onCancel: (f: () => void) => void) => {
        const requestOptions: any = { headers: options.headers || undefined, redirect: "manual" }
        runtime.configureRequestUrl(url, requestOptions)
        runtime.configureRequestOptions(requestOptions)
        this.doDownload(
          requestOptions,
          {
            destination,
            options,
            onCancel,
            callback: (error: Error | null) => (error == null ? resolve(destination) : reject(error)),
            responseHandler: null
          },
          0
        )
      }
    )
  }
}

export interface ResolvedFile {
  readonly url: URL
  readonly info: { readonly url: string; readonly sha512?: string; readonly size?: number }
}

export interface Feed {
  readonly info: UpdateInfo
  readonly files: ReadonlyArray<ResolvedFile>
  /** The file MacUpdater would install on an arm64 Mac. */
  readonly zipForArm64: ResolvedFile | null | undefined
  /** Downloads a resolved file as the updater does (sha512 checked); resolves to its bytes. */
  readonly download: (file: ResolvedFile) => Promise<Buffer>
}

/** The feed at `feedUrl` (e.g. `${base}/v1/desktop/updates/darwin-arm64`), read with `headers` (the credential). */
export const readFeed = async (feedUrl: string, headers: Record<string, string>): Promise<Feed> => {
  const executor = new NodeHttpExecutor()
  const updater = { channel: null, isAddNoCacheQuery: true }
  const provider = new GenericProvider({ provider: "generic", url: feedUrl }, updater as any, {
    executor: executor as any,
    platform: "darwin",
    isUseMultipleRangeRequest: true
  })
  provider.setRequestHeaders(headers)
  const info = await provider.getLatestVersion()
  const files = provider.resolveFiles(info) as unknown as ReadonlyArray<ResolvedFile>
  // filterFilesForArch is protected in the typings only
  const zipForArm64 = findFile((MacUpdater as any).filterFilesForArch(files, true), "zip", ["pkg", "dmg"]) as unknown as
    | ResolvedFile
    | null
    | undefined
  const download = async (file: ResolvedFile) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "board-updater-"))
    try {
      const destination = path.join(dir, "download")
      await executor.download(file.url, destination, {
        headers: { ...headers, ...provider.fileExtraDownloadHeaders },
        sha512: file.info.sha512,
        cancellationToken: new runtime.CancellationToken()
      })
      return fs.readFileSync(destination)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }
  return { info, files, zipForArm64, download }
}
