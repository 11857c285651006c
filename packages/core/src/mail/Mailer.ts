/**
 * Outgoing mail (issue 30): invitations and password resets, sent through the SMTP server of
 * SMTP_URL as MAIL_FROM with nodemailer (loaded only when mail is configured). A message is
 * posted, not awaited: the request that caused it answers at once (the link is in the API's
 * answer anyway, and a password reset must take as long for an unknown address as for a known
 * one), and a failed delivery is a warning in the log naming the recipient's domain only.
 */
import { Context, Effect, Layer } from "effect"
import { AppConfig } from "../Config.ts"

export interface MailMessage {
  readonly to: string
  readonly subject: string
  readonly text: string
  readonly html: string
}

export class Mailer extends Context.Service<
  Mailer,
  {
    /** Whether SMTP_URL is set: without it, nothing is sent and the API's answers carry the links. */
    readonly configured: boolean
    /** Sends in the background; returns at once. Does nothing when mail is not configured. */
    readonly post: (message: MailMessage) => Effect.Effect<void>
  }
>()("board/core/Mailer") {
  static readonly layer = Layer.effect(
    Mailer,
    Effect.gen(function* () {
      const mail = (yield* AppConfig).mail
      if (mail === undefined) return Mailer.of({ configured: false, post: () => Effect.void })
      const transport = yield* Effect.acquireRelease(
        Effect.promise(async () => {
          // CommonJS: the bundle and Node's loader both put the module under `default`
          const nodemailer = (await import("nodemailer")).default
          return nodemailer.createTransport(mail.smtpUrl)
        }),
        (t) => Effect.sync(() => t.close())
      )
      const scope = yield* Effect.scope
      const send = (m: MailMessage) =>
        Effect.tryPromise({
          try: () => transport.sendMail({ from: mail.from, to: m.to, subject: m.subject, text: m.text, html: m.html }),
          catch: (e) => (e instanceof Error ? e.message : String(e))
        }).pipe(
          Effect.timeoutOrElse({ duration: "60 seconds", orElse: () => Effect.fail("no answer within 60 s") }),
          Effect.catch((reason) =>
            Effect.logWarning(
              `mail to an address at ${m.to.split("@").pop()} was not sent (SMTP_URL): ${reason.replace(/\s+/g, " ")}`
            )
          )
        )
      return Mailer.of({
        configured: true,
        post: (m) => send(m).pipe(Effect.forkIn(scope), Effect.asVoid)
      })
    })
  )
}
