/** A one-line progress bar on a terminal, redrawn at most ten times a second; silent elsewhere. */
import type { PublishProgress } from "@board/core"

const WIDTH = 16

const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`

export interface ProgressBar {
  readonly update: (p: PublishProgress) => void
  readonly done: () => void
}

export const progressBar = (out: NodeJS.WriteStream): ProgressBar | undefined => {
  if (out.isTTY !== true) return undefined
  let last = 0
  let current = ""
  let drawn = false
  const draw = (p: PublishProgress) => {
    const ratio = p.total === 0 ? 1 : Math.min(1, p.done / p.total)
    const filled = Math.round(ratio * WIDTH)
    const label = p.phase === "hash" ? "checksum" : "upload  "
    const line = `${label} ${p.file.length > 28 ? `${p.file.slice(0, 27)}…` : p.file} [${"#".repeat(filled)}${"-".repeat(WIDTH - filled)}] ${Math.floor(
      ratio * 100
    )}% ${mb(p.done)}/${mb(p.total)}`
    const columns = out.columns || 80
    out.write(`\r${line.slice(0, columns - 1)}\x1b[K`)
    drawn = true
  }
  return {
    update: (p) => {
      const key = `${p.phase}:${p.file}`
      const now = Date.now()
      const finished = p.done >= p.total
      // always draw a new file's first and last state; throttle the rest
      if (key === current && !finished && now - last < 100) return
      if (key !== current && drawn) out.write("\n")
      current = key
      last = now
      draw(p)
    },
    done: () => {
      if (drawn) out.write("\n")
    }
  }
}
