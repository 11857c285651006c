/**
 * `/invite/<token>`: the page an invitation link opens (CONTRACT.md "Teams"). It says who invites
 * whom to which workspace with which role (`GET /v1/invitations/{token}`, no credential), then:
 * signed out, a signup form that joins at once (`invitation` in the signup body) or a sign-in
 * link that comes back here; signed in, a Join button (`POST /v1/invitations/{token}/accept`).
 * Either way the person lands on the workspace.
 */
import { type FormEvent, useContext, useEffect, useState } from "react"
import { Link, useLocation } from "wouter"
import { api, csrfToken } from "../api.ts"
import { SessionContext } from "../lib/session.ts"
import { ErrorLine, errorText, formatTime } from "../lib/ui.tsx"
import type { components } from "../lib/api-types.ts"

type Preview = components["schemas"]["InvitationPreview"]

export function InvitePage({ token, onSignedIn }: { token: string; onSignedIn: () => Promise<boolean> }) {
  const session = useContext(SessionContext)
  const [preview, setPreview] = useState<Preview | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    api.GET("/v1/invitations/{id}", { params: { path: { id: token } } }).then(setPreview, (e) => setError(errorText(e)))
  }, [token])

  return (
    <main className="auth">
      <div className="auth-card">
        <h1>Join a workspace</h1>
        <ErrorLine error={error} />
        {error !== null && (
          <p className="muted">
            Ask whoever sent it for a new link. <Link href="/">Go to your workspaces</Link>
          </p>
        )}
        {preview === null && error === null && <p className="muted">Reading the invitation…</p>}
        {preview !== null && (
          <>
            <p className="invite-offer">
              <strong>{preview.invitedBy.fullName}</strong> invites you to <strong>{preview.workspaceName}</strong> as{" "}
              <strong>{preview.role}</strong>.
            </p>
            <p className="muted">
              {preview.email === null ? "Anyone with this link can join once." : `For ${preview.email} only.`} The link
              expires {formatTime(preview.expiresAt)}.
            </p>
            {session === null ? (
              <JoinBySignup token={token} preview={preview} onSignedIn={onSignedIn} />
            ) : (
              <JoinSignedIn token={token} email={session.me.email} />
            )}
          </>
        )}
      </div>
    </main>
  )
}

function JoinSignedIn({ token, email }: { token: string; email: string }) {
  const [, navigate] = useLocation()
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const join = async () => {
    setBusy(true)
    setError(null)
    try {
      const joined = await api.POST("/v1/invitations/{token}/accept", { params: { path: { token } } })
      navigate(`/w/${joined.workspace.id}`)
    } catch (e) {
      setError(errorText(e))
      setBusy(false)
    }
  }
  return (
    <>
      <ErrorLine error={error} />
      <p className="muted">You are signed in as {email}.</p>
      <button type="button" className="button primary" disabled={busy} onClick={() => void join()}>
        {busy ? "Joining…" : "Join the workspace"}
      </button>
    </>
  )
}

function JoinBySignup({
  token,
  preview,
  onSignedIn
}: {
  token: string
  preview: Preview
  onSignedIn: () => Promise<boolean>
}) {
  const [, navigate] = useLocation()
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const here = `/invite/${token}`

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    setBusy(true)
    setError(null)
    try {
      await api.POST("/v1/auth/signup", {
        body: {
          email: String(form.get("email") ?? ""),
          password: String(form.get("password") ?? ""),
          full_name: String(form.get("full_name") ?? "").trim(),
          invitation: token
        }
      })
      if (csrfToken() === undefined || !(await onSignedIn())) {
        setError("Your account was created and joined, but this browser kept no session: sign in.")
        setBusy(false)
        return
      }
      const joined = (await api.GET("/v1/workspaces")).find((w) => w.name === preview.workspaceName)
      navigate(joined === undefined ? "/" : `/w/${joined.id}`)
    } catch (err) {
      setError(errorText(err))
      setBusy(false)
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="invite-signup">
      <h2>New here? Create your account</h2>
      <ErrorLine error={error} />
      <label>
        Full name
        <input name="full_name" autoComplete="name" required maxLength={200} />
      </label>
      <label>
        Email
        <input
          name="email"
          type="email"
          autoComplete="email"
          required
          defaultValue={preview.email ?? ""}
          readOnly={preview.email !== null}
        />
      </label>
      <label>
        Password <span className="muted">(8 to 128 characters)</span>
        <input name="password" type="password" autoComplete="new-password" required minLength={8} maxLength={128} />
      </label>
      <button type="submit" className="button primary" disabled={busy}>
        {busy ? "Joining…" : "Create account and join"}
      </button>
      <p className="muted">
        Have an account? <Link href={`/signin?next=${encodeURIComponent(here)}`}>Sign in to join</Link>
      </p>
    </form>
  )
}
