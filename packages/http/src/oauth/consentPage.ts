/**
 * The sign-in and consent page: plain HTML that works without JavaScript, one form, every
 * client-supplied text escaped. CONTRACT.md fixes the field names: `email`, `password` (when
 * not signed in), one `workspace` checkbox per workspace, and `decision` = allow | deny.
 */
import { escapeHtml } from "../html.ts"

export interface ConsentView {
  readonly clientName: string
  readonly redirectHost: string
  readonly loopbackOnly: boolean
  /** Hidden fields carrying the authorization request. */
  readonly hidden: Readonly<Record<string, string>>
  readonly csrf: string
  readonly signedIn:
    | { readonly email: string; readonly workspaces: ReadonlyArray<{ id: string; name: string }> }
    | undefined
  readonly error: string | undefined
}

export const renderConsentPage = (v: ConsentView): string => {
  const hidden = Object.entries(v.hidden)
    .map(([k, val]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(val)}">`)
    .join("\n")
  const signIn =
    v.signedIn === undefined
      ? `<p>Sign in to continue.</p>
<label>Email <input type="email" name="email" autocomplete="username" required></label>
<label>Password <input type="password" name="password" autocomplete="current-password" required></label>`
      : `<p>Signed in as <b>${escapeHtml(v.signedIn.email)}</b>.</p>`
  const workspaces =
    v.signedIn === undefined
      ? ""
      : v.signedIn.workspaces.length === 0
        ? `<p>You have no workspaces yet.</p>`
        : `<fieldset><legend>Workspaces this application may use</legend>
${v.signedIn.workspaces.map((w, i) => `<div><input type="checkbox" name="workspace" value="${escapeHtml(w.id)}" id="ws${i}"> <label for="ws${i}">${escapeHtml(w.name)}</label></div>`).join("\n")}
</fieldset>`
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Authorize ${escapeHtml(v.clientName)} — Board Service</title>
<meta name="viewport" content="width=device-width,initial-scale=1">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}label{display:block;margin:.5rem 0}
.error{color:#a00;border:1px solid #a00;padding:.5rem}.warn{color:#850}button{margin:.5rem .5rem 0 0;padding:.4rem 1rem}</style>
</head><body>
<h1>Authorize ${escapeHtml(v.clientName)}</h1>
<p><b>${escapeHtml(v.clientName)}</b> wants to read and change cards, columns, labels, subtasks and links on your board
(scope <code>mcp</code>). After you allow it, you will be sent to <b>${escapeHtml(v.redirectHost)}</b>.</p>
${v.loopbackOnly ? `<p class="warn">This application receives the answer on your own computer (${escapeHtml(v.redirectHost)}). Allow it only if you started it yourself.</p>` : ""}
${v.error === undefined ? "" : `<p class="error" role="alert">${escapeHtml(v.error)}</p>`}
<form method="post" action="/oauth/authorize">
${hidden}
<input type="hidden" name="csrf" value="${escapeHtml(v.csrf)}">
${signIn}
${workspaces}
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</form>
</body></html>`
}

export const renderErrorPage = (message: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authorization error — Board Service</title></head>
<body style="font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto"><h1>Authorization error</h1><p>${escapeHtml(message)}</p></body></html>`
