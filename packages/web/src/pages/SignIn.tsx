/**
 * Signing in and signing up. The server sets the session cookie on the answer (same origin);
 * the app then asks `GET /v1/me` who it is. A new account gets its first workspace right away,
 * named on the form, so the home page has somewhere to create a project.
 */
import { type FormEvent, useEffect, useState } from "react"
import { Link } from "wouter"
import { api, csrfToken } from "../api.ts"
import { ForgotPassword } from "./ResetPassword.tsx"

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e))

/**
 * The server accepted the password but this browser holds no session: the cookie is set only
 * for PUBLIC_URL's origin (docs/web.md), so the page is most likely open under another name
 * for the server. The API index (public) names that origin.
 */
const sessionNotKept = async (): Promise<string> => {
  let origin: string | undefined
  try {
    origin = new URL((await api.GET("/v1")).baseUrl).origin
  } catch {}
  return origin !== undefined && origin !== window.location.origin
    ? `Signed in, but this browser did not keep the session: the server's address is ${origin}. Open ${origin} and sign in there.`
    : "Signed in, but this browser did not keep the session cookie: allow cookies for this site and try again."
}

/** After the server accepted the credentials: whether the app is signed in, else why not. */
const finishSignIn = async (onSignedIn: () => Promise<boolean>): Promise<string | null> => {
  if (csrfToken() === undefined) return sessionNotKept()
  if (await onSignedIn()) return null
  return sessionNotKept()
}

interface Provider {
  readonly name: string
  readonly startUrl: string
}

/**
 * "Sign in with <provider>" when the server has single sign-on (docs/sso.md): a plain link, as
 * the flow is full-page navigations to the provider and back (`/auth/oidc/start`), after which
 * the browser holds the same session as a password sign-in.
 */
function SingleSignOn({ next }: { next: string | null }) {
  const [providers, setProviders] = useState<ReadonlyArray<Provider>>([])
  useEffect(() => {
    let live = true
    api.GET("/v1/auth/providers").then(
      (data) => live && setProviders(data.providers),
      () => {} // without the list the password form still works
    )
    return () => {
      live = false
    }
  }, [])
  if (providers.length === 0) return null
  return (
    <div className="sso">
      {providers.map((p) => (
        <a
          key={p.startUrl}
          className="button"
          href={next === null ? p.startUrl : `${p.startUrl}?next=${encodeURIComponent(next)}`}
        >
          Sign in with {p.name}
        </a>
      ))}
      <p className="muted">or with your email and password</p>
    </div>
  )
}

export function SignInPage({ onSignedIn }: { onSignedIn: () => Promise<boolean> }) {
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [forgot, setForgot] = useState(false)
  const next = new URLSearchParams(window.location.search).get("next")

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    setBusy(true)
    setError(null)
    try {
      await api.POST("/v1/auth/login", {
        body: { email: String(form.get("email") ?? ""), password: String(form.get("password") ?? "") }
      })
      // signed in: the app's /signin and /signup routes send a signed-in person to `?next=`
      const failed = await finishSignIn(onSignedIn)
      if (failed !== null) {
        setError(failed)
        setBusy(false)
      }
    } catch (err) {
      setError(errorText(err))
      setBusy(false)
    }
  }

  if (forgot)
    return (
      <main className="auth">
        <ForgotPassword onClose={() => setForgot(false)} />
      </main>
    )
  return (
    <main className="auth">
      <form className="auth-card" onSubmit={(e) => void submit(e)}>
        <h1>Sign in to Board</h1>
        {error !== null && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <SingleSignOn next={next} />
        <label>
          Email
          <input name="email" type="email" autoComplete="email" required />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
        <button type="button" className="link-button" onClick={() => setForgot(true)}>
          Forgot password?
        </button>
        <p className="muted">
          New here?{" "}
          <Link href={next === null ? "/signup" : `/signup?next=${encodeURIComponent(next)}`}>Create an account</Link>
        </p>
      </form>
    </main>
  )
}

export function SignUpPage({ onSignedIn }: { onSignedIn: () => Promise<boolean> }) {
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const next = new URLSearchParams(window.location.search).get("next")

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    const fullName = String(form.get("full_name") ?? "").trim()
    const workspace = String(form.get("workspace") ?? "").trim()
    setBusy(true)
    setError(null)
    try {
      await api.POST("/v1/auth/signup", {
        body: {
          email: String(form.get("email") ?? ""),
          password: String(form.get("password") ?? ""),
          full_name: fullName
        }
      })
      // the account exists; without the session, naming its workspace would be refused
      if (csrfToken() === undefined) {
        setError(`Your account was created. ${await sessionNotKept()}`)
        setBusy(false)
        return
      }
      await api.POST("/v1/workspaces", { body: { name: workspace || `${fullName}'s workspace` } })
      // signed in: the app's /signin and /signup routes send a signed-in person to `?next=`
      const failed = await finishSignIn(onSignedIn)
      if (failed !== null) {
        setError(failed)
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
        <h1>Create your account</h1>
        {error !== null && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <label>
          Full name
          <input name="full_name" autoComplete="name" required maxLength={200} />
        </label>
        <label>
          Email
          <input name="email" type="email" autoComplete="email" required />
        </label>
        <label>
          Password <span className="muted">(8 to 128 characters)</span>
          <input name="password" type="password" autoComplete="new-password" required minLength={8} maxLength={128} />
        </label>
        <label>
          First workspace <span className="muted">(your team or company)</span>
          <input name="workspace" placeholder="Acme" maxLength={200} />
        </label>
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? "Creating…" : "Create account"}
        </button>
        <p className="muted">
          Have an account?{" "}
          <Link href={next === null ? "/signin" : `/signin?next=${encodeURIComponent(next)}`}>Sign in</Link>
        </p>
      </form>
    </main>
  )
}
