/**
 * Getting back into an account (CONTRACT.md "Password reset"): the sign-in page's "Forgot
 * password?" form posts the email (the answer is the same whether or not it has an account),
 * and `/reset-password/<token>`, the page the mailed link opens, sets a new password, which
 * signs this browser in and ends the account's other web sessions.
 */
import { type FormEvent, useState } from "react"
import { Link, useLocation } from "wouter"
import { api, csrfToken } from "../api.ts"
import { ErrorLine, errorText } from "../lib/ui.tsx"

export function ForgotPassword({ onClose }: { onClose: () => void }) {
  const [sent, setSent] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const email = String(new FormData(e.currentTarget).get("email") ?? "").trim()
    setBusy(true)
    setError(null)
    try {
      await api.POST("/v1/auth/password-reset", { body: { email } })
      setSent(email)
    } catch (err) {
      setError(errorText(err))
    } finally {
      setBusy(false)
    }
  }
  return (
    <form className="auth-card" onSubmit={(e) => void submit(e)}>
      <h1>Reset your password</h1>
      <ErrorLine error={error} />
      {sent !== null ? (
        <p role="status">
          If {sent} has an account here, a link to set a new password was mailed to it (valid 1 hour). No mail? Ask the
          server's operator: <code>board admin reset-password EMAIL</code> prints one.
        </p>
      ) : (
        <>
          <label>
            Email
            <input name="email" type="email" autoComplete="email" required />
          </label>
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? "Sending…" : "Mail me a reset link"}
          </button>
        </>
      )}
      <p className="muted">
        <button type="button" className="link-button" onClick={onClose}>
          Back to sign-in
        </button>
      </p>
    </form>
  )
}

export function ResetPasswordPage({ token, onSignedIn }: { token: string; onSignedIn: () => Promise<boolean> }) {
  const [, navigate] = useLocation()
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    const password = String(form.get("password") ?? "")
    if (password !== String(form.get("again") ?? "")) {
      setError("The two passwords differ: type the same one twice.")
      return
    }
    setBusy(true)
    setError(null)
    try {
      await api.POST("/v1/auth/password-reset/confirm", { body: { token, password } })
      if (csrfToken() !== undefined && (await onSignedIn())) navigate("/")
      else {
        setError("Your password is set, but this browser kept no session: sign in with it.")
        setBusy(false)
      }
    } catch (err) {
      setError(errorText(err))
      setBusy(false)
    }
  }
  return (
    <main className="auth">
      <form className="auth-card" onSubmit={(e) => void submit(e)}>
        <h1>Set a new password</h1>
        <ErrorLine error={error} />
        <label>
          New password <span className="muted">(8 to 128 characters)</span>
          <input name="password" type="password" autoComplete="new-password" required minLength={8} maxLength={128} />
        </label>
        <label>
          The same again
          <input name="again" type="password" autoComplete="new-password" required minLength={8} maxLength={128} />
        </label>
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? "Saving…" : "Set the password and sign in"}
        </button>
        <p className="muted">
          <Link href="/signin">Back to sign-in</Link>
        </p>
      </form>
    </main>
  )
}
