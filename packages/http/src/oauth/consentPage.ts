/**
 * The sign-in and consent page: plain HTML that works without JavaScript, one form, every
 * client-supplied text escaped. CONTRACT.md fixes the field names: `email`, `password` (when
 * not signed in), one `workspace` checkbox per workspace, and `decision` = allow | deny.
 *
 * Two steps a person can tell apart: "Sign in" (email, password; its button posts
 * decision=allow, so a client that fills the contract's fields in one post, workspaces
 * included, still gets its grant), then the workspaces and "Allow" / "Deny". Made for a phone
 * (nothing wider than the screen, large targets) and a screen reader (headings, labels around
 * their controls, the error announced).
 */
import type { RedirectTarget } from "@board/core"
import { escapeHtml } from "../html.ts"

export interface ConsentView {
  readonly clientName: string
  /** What the client asked for: `mcp` reads and writes, `mcp:read` only reads (issue 33). */
  readonly scope: "mcp" | "mcp:read"
  readonly target: RedirectTarget
  /** Hidden fields carrying the authorization request. */
  readonly hidden: Readonly<Record<string, string>>
  readonly csrf: string
  readonly signedIn:
    | { readonly email: string; readonly workspaces: ReadonlyArray<{ id: string; name: string }> }
    | undefined
  readonly error: string | undefined
}

const STYLE = `*{box-sizing:border-box}
body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:1rem;color:#1a1a1a;background:#fff;overflow-wrap:anywhere}
main{max-width:32rem;margin:1rem auto}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 1rem}h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
.step{color:#555;font-size:.9rem;margin:0}
label.field{display:block;margin:.75rem 0}label.field input{display:block;width:100%;margin-top:.25rem;padding:.6rem;font:inherit;border:1px solid #767676;border-radius:4px}
fieldset{border:1px solid #ccc;border-radius:4px;margin:0;padding:.5rem 1rem}legend{padding:0 .25rem;font-weight:600}
label.ws{display:flex;gap:.6rem;align-items:center;min-height:44px;cursor:pointer}label.ws input{width:1.25rem;height:1.25rem;flex:none;margin:0}
.error{color:#a00;border:1px solid #a00;border-radius:4px;padding:.5rem .75rem}.warn{background:#fff6e0;border-left:4px solid #c80;padding:.5rem .75rem}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;margin-top:1.25rem}
button{font:inherit;min-height:44px;padding:.5rem 1.25rem;border-radius:4px;border:1px solid #333;background:#fff;color:#1a1a1a;cursor:pointer}
button.primary{background:#1a56db;border-color:#1a56db;color:#fff}button.link{border:0;padding:.5rem 0;text-decoration:underline;background:none}
code{overflow-wrap:anywhere}`

/** Where the code goes, said so that a person can judge it (MCP security: name the host). */
const destination = (t: RedirectTarget): string => {
  const label = `<b>${escapeHtml(t.label)}</b>`
  switch (t.kind) {
    case "web":
      return `<p>After you allow it, you will be sent to ${label}.</p>`
    case "loopback":
      return `<p>After you allow it, the answer goes to a program on this computer (${label}).</p>
<p class="warn">Any program on this computer could be listening there. Allow it only if you started this sign-in from the application yourself.</p>`
    case "app":
      return `<p>After you allow it, the answer goes to the app on this device that opens ${label} links.</p>
<p class="warn">Any app on this device can claim a link type. Allow it only if you started this sign-in from the application yourself.</p>`
  }
}

export const renderConsentPage = (v: ConsentView): string => {
  const name = escapeHtml(v.clientName)
  const hidden = Object.entries(v.hidden)
    .map(([k, val]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(val)}">`)
    .join("\n")
  const step =
    v.signedIn === undefined
      ? `<h2>Sign in</h2>
<p class="step">Step 1 of 2: sign in to Board Service. Then you choose what ${name} may use.</p>
<label class="field">Email <input type="email" name="email" autocomplete="username" required></label>
<label class="field">Password <input type="password" name="password" autocomplete="current-password" required></label>
<div class="actions">
<button type="submit" class="primary" name="decision" value="allow">Sign in</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</div>`
      : `<h2>Allow access</h2>
<p class="step">Step 2 of 2: signed in as <b>${escapeHtml(v.signedIn.email)}</b>.</p>
${
  v.signedIn.workspaces.length === 0
    ? `<p>You have no workspaces yet, so there is nothing to allow.</p>
<div class="actions">
<button type="submit" name="decision" value="deny">Deny</button>`
    : `<fieldset><legend>Workspaces ${name} may use</legend>
${v.signedIn.workspaces.map((w) => `<label class="ws"><input type="checkbox" name="workspace" value="${escapeHtml(w.id)}"> ${escapeHtml(w.name)}</label>`).join("\n")}
</fieldset>
<div class="actions">
<button type="submit" class="primary" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>`
}
<button type="submit" class="link" name="account" value="switch" formnovalidate>Use another account</button>
</div>`
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${v.signedIn === undefined ? "Sign in" : "Allow access"}: ${name} — Board Service</title>
<style>${STYLE}</style>
</head><body><main>
<h1>Authorize ${name}</h1>
${
  v.scope === "mcp:read"
    ? `<p><b>${name}</b> wants to <b>read</b> your boards: projects, cards, comments, history and links. It will
not be able to change or delete anything (scope <code>mcp:read</code>).</p>`
    : `<p><b>${name}</b> wants to read, create, change and delete cards, columns, labels, subtasks, comments and links
on your board (scope <code>mcp</code>). It cannot manage members, projects, webhooks or keys.</p>`
}
${destination(v.target)}
${v.error === undefined ? "" : `<p class="error" role="alert">${escapeHtml(v.error)}</p>`}
<form method="post" action="/oauth/authorize">
${hidden}
<input type="hidden" name="csrf" value="${escapeHtml(v.csrf)}">
${step}
</form>
</main></body></html>`
}

export const renderErrorPage = (message: string): string =>
  `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>Authorization error — Board Service</title>
<style>${STYLE}</style>
</head><body><main>
<h1>Authorization error</h1>
<p class="error" role="alert">${escapeHtml(message)}</p>
<p>Nothing was shared. Go back to the application and start again; if this keeps happening, its developer needs to know.</p>
</main></body></html>`

/**
 * An authorization error for a client this person has not granted (or before anyone signed in):
 * not redirected, since anyone may register a client whose redirect URI is their own site and
 * use our address to bounce a victim there (RFC 9700 §4.11.2). The page names the client and
 * where the link goes; following it is the person's choice.
 */
export const renderRedirectErrorPage = (v: {
  readonly clientName: string
  readonly target: RedirectTarget
  readonly description: string
  /** The client's redirect URI with the error parameters. */
  readonly location: string
}): string =>
  `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>Authorization error: ${escapeHtml(v.clientName)} — Board Service</title>
<style>${STYLE}</style>
</head><body><main>
<h1>Authorization error</h1>
<p>The application <b>${escapeHtml(v.clientName)}</b> asked for access in a way this site cannot accept:</p>
<p class="error" role="alert">${escapeHtml(v.description)}</p>
<p>Nothing was shared. The application asked to send you back to <b>${escapeHtml(v.target.label)}</b>
with this error. Continue only if you trust that site and started this yourself.</p>
<p><a href="${escapeHtml(v.location)}" rel="noreferrer">Continue to ${escapeHtml(v.target.label)}</a></p>
<p class="step">Full address: <code>${escapeHtml(v.location)}</code></p>
</main></body></html>`
