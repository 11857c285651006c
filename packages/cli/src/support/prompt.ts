/** Questions on a terminal (the answer of a secret one is not echoed), and reading stdin. */
import { Effect } from "effect"
import * as readline from "node:readline"
import { failure } from "./failure.ts"

export const stdinIsTerminal = () => process.stdin.isTTY === true

/** All of stdin, as text. */
export const readStdin = Effect.tryPromise({
  try: async () => {
    const chunks: Array<Buffer> = []
    for await (const chunk of process.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk))
    return Buffer.concat(chunks).toString("utf8")
  },
  catch: (e) => failure(`cannot read stdin: ${e instanceof Error ? e.message : String(e)}`)
})

/** Stdin without the one line break a shell's `echo` or a here-string adds. */
export const readStdinLine = Effect.map(readStdin, (text) => text.replace(/\r?\n$/, ""))

const cancelled = () => failure("cancelled")

/** Asks on stderr, reads one line from the terminal. */
export const ask = (question: string) =>
  Effect.callback<string, ReturnType<typeof cancelled>>((resume) => {
    const rl = readline.createInterface({ input: process.stdin, output: process.stderr, terminal: true })
    let answered = false
    rl.on("SIGINT", () => {
      rl.close()
    })
    rl.on("close", () => {
      if (!answered) {
        process.stderr.write("\n")
        resume(Effect.fail(cancelled()))
      }
    })
    rl.question(question, (answer) => {
      answered = true
      rl.close()
      resume(Effect.succeed(answer.trim()))
    })
    return Effect.sync(() => rl.close())
  })

/** Asks on stderr and reads a line from the terminal without echoing it. */
export const askSecret = (question: string) =>
  Effect.callback<string, ReturnType<typeof cancelled>>((resume) => {
    const stdin = process.stdin
    process.stderr.write(question)
    stdin.setRawMode(true)
    stdin.setEncoding("utf8")
    stdin.resume()
    let value = ""
    let done = false
    const finish = () => {
      if (done) return
      done = true
      stdin.off("data", onData)
      stdin.setRawMode(false)
      stdin.pause()
      process.stderr.write("\n")
    }
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === "\r" || ch === "\n") {
          finish()
          return resume(Effect.succeed(value))
        }
        if (ch === "\u0003" || (ch === "\u0004" && value === "")) {
          finish()
          return resume(Effect.fail(cancelled()))
        }
        if (ch === "\u007f" || ch === "\b") value = [...value].slice(0, -1).join("")
        else if (ch === "\u0015")
          value = "" // Ctrl-U
        else if (ch === "\u001b")
          return // an escape sequence (arrow keys): drop the rest of it
        else if (ch >= " ") value += ch
      }
    }
    stdin.on("data", onData)
    return Effect.sync(finish)
  })
