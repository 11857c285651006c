/**
 * A real SMTP server for a test (smtp-server, the server half of nodemailer's project): it takes
 * every message sent to it on 127.0.0.1 and parses it (mailparser), so a test reads the mail
 * the service really sent, headers, text and HTML alike.
 */
import { type ParsedMail, simpleParser } from "mailparser"
import { SMTPServer } from "smtp-server"
import { freePort } from "./server.ts"
import { waitFor } from "./poll.ts"

export interface ReceivedMail {
  /** The envelope's recipients, as the SMTP conversation named them. */
  readonly rcptTo: ReadonlyArray<string>
  readonly mailFrom: string
  /** The user the client authenticated as, if it did. */
  readonly user: string | undefined
  readonly parsed: ParsedMail
}

export interface TestSmtp {
  /** SMTP_URL for the service: `smtp://user:pass@127.0.0.1:<port>`. */
  readonly url: string
  readonly received: Array<ReceivedMail>
  /** Waits for the first mail to `to` not yet taken, and takes it. */
  readonly next: (to: string, timeoutMs?: number) => Promise<ReceivedMail>
  readonly stop: () => Promise<void>
}

export const startSmtp = async (): Promise<TestSmtp> => {
  const port = await freePort()
  const received: Array<ReceivedMail> = []
  const taken = new Set<ReceivedMail>()
  const server = new SMTPServer({
    // plain SMTP on loopback: nodemailer would upgrade with STARTTLS if it were offered
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authOptional: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === "board" && auth.password === "mail-secret") callback(null, { user: auth.username })
      else callback(new Error("535 wrong user or password"))
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          received.push({
            rcptTo: session.envelope.rcptTo.map((r) => r.address),
            mailFrom: session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address,
            user: session.user as string | undefined,
            parsed
          })
          callback()
        },
        (e) => callback(e)
      )
    }
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, "127.0.0.1", () => resolve())
  })
  return {
    url: `smtp://board:mail-secret@127.0.0.1:${port}`,
    received,
    next: (to, timeoutMs = 10_000) =>
      waitFor(
        `a mail to ${to}`,
        () => {
          const mail = received.find((m) => !taken.has(m) && m.rcptTo.includes(to))
          if (mail !== undefined) taken.add(mail)
          return mail
        },
        { timeoutMs }
      ),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/** The first link in a mail's plain text that starts with `prefix`. */
export const linkIn = (mail: ReceivedMail, prefix: string): string => {
  const text = mail.parsed.text ?? ""
  const found = text.split(/\s+/).find((w) => w.startsWith(prefix))
  if (found === undefined) throw new Error(`no link starting ${prefix} in the mail:\n${text}`)
  return found
}
