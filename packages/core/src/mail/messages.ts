/** The mails the service sends, each as plain text and HTML (issue 30). */
import type { MailMessage } from "./Mailer.ts"

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!)

/** A name a person chose, on one line (a subject header takes no line break). */
const oneLine = (s: string) => s.replace(/[\r\n\t]+/g, " ").trim()

const html = (paragraphs: ReadonlyArray<string>, link: { readonly url: string; readonly label: string }) =>
  `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1f2328">${paragraphs
    .map((p) => `<p>${escapeHtml(p)}</p>`)
    .join(
      ""
    )}<p><a href="${escapeHtml(link.url)}" style="display:inline-block;padding:8px 16px;background:#0969da;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(link.label)}</a></p><p style="color:#57606a;font-size:13px">Or open this link: ${escapeHtml(link.url)}</p></body></html>`

export const invitationMail = (input: {
  readonly to: string
  readonly inviter: string
  readonly workspace: string
  readonly role: string
  readonly url: string
  readonly expiresAt: string
}): MailMessage => {
  const inviter = oneLine(input.inviter)
  const workspace = oneLine(input.workspace)
  const lines = [
    `${inviter} invited you to join the workspace "${workspace}" on Board as ${input.role === "admin" || input.role === "owner" ? "an" : "a"} ${input.role}.`,
    `The link works once and until ${input.expiresAt.slice(0, 16).replace("T", " ")} UTC. If you do not know ${inviter}, ignore this mail.`
  ]
  return {
    to: input.to,
    subject: `${inviter} invited you to ${workspace} on Board`,
    text: `${lines[0]}\n\nAccept the invitation: ${input.url}\n\n${lines[1]}\n`,
    html: html(lines, { url: input.url, label: "Accept the invitation" })
  }
}

export const passwordResetMail = (input: { readonly to: string; readonly url: string }): MailMessage => {
  const lines = [
    "Someone asked to reset the password of your Board account. If it was you, choose a new password:",
    "The link works once, for 1 hour. Using it signs you out of the web app everywhere else. If you did not ask, ignore this mail: your password stays as it is."
  ]
  return {
    to: input.to,
    subject: "Reset your Board password",
    text: `${lines[0]}\n\n${input.url}\n\n${lines[1]}\n`,
    html: html(lines, { url: input.url, label: "Choose a new password" })
  }
}
