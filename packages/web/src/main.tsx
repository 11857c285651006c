import { StrictMode, useCallback, useEffect, useMemo, useState } from "react"
import { createRoot } from "react-dom/client"
import { Redirect, Route, Switch, useLocation } from "wouter"
import { ApiError, api, setUnauthorizedHandler } from "./api.ts"
import { Layout } from "./components/Layout.tsx"
import { type Me, type Session, SessionContext, safeNext } from "./lib/session.ts"
import { BoardPage } from "./pages/Board.tsx"
import { HomePage } from "./pages/Home.tsx"
import { InvitePage } from "./pages/Invite.tsx"
import { KeysPage } from "./pages/Keys.tsx"
import { LinksPage } from "./pages/Links.tsx"
import { ResetPasswordPage } from "./pages/ResetPassword.tsx"
import { SignInPage, SignUpPage } from "./pages/SignIn.tsx"
import { WorkspacePage } from "./pages/Workspace.tsx"
import "./styles.css"

type Auth =
  | { state: "loading" }
  | { state: "signedOut" }
  | { state: "signedIn"; me: Me }
  | { state: "failed"; message: string }

const isAuthPage = (path: string) => path === "/signin" || path === "/signup"
/** Pages a mailed link opens: shown signed in or not. */
const isLinkPage = (path: string) => path.startsWith("/invite/") || path.startsWith("/reset-password/")

function App() {
  const [auth, setAuth] = useState<Auth>({ state: "loading" })
  const [location, navigate] = useLocation()

  /** Asks who is signed in; answers whether someone is (the sign-in pages say why not). */
  const loadMe = useCallback(async (): Promise<boolean> => {
    try {
      setAuth({ state: "signedIn", me: await api.GET("/v1/me") })
      return true
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) setAuth({ state: "signedOut" })
      else setAuth({ state: "failed", message: e instanceof Error ? e.message : String(e) })
      return false
    }
  }, [])

  useEffect(() => {
    void loadMe()
  }, [loadMe])

  // any request answered 401 (the session expired or was revoked): back to sign-in, keeping the page
  useEffect(() => {
    setUnauthorizedHandler(() => {
      if (isAuthPage(window.location.pathname) || isLinkPage(window.location.pathname)) return
      setAuth({ state: "signedOut" })
    })
  }, [])

  const session = useMemo<Session | null>(
    () =>
      auth.state === "signedIn"
        ? {
            me: auth.me,
            signOut: async () => {
              try {
                await api.POST("/v1/auth/logout")
              } catch (e) {
                // a session the server already ended is signed out; any other failure left it
                // open, and the header says so (Layout) rather than pretending
                if (!(e instanceof ApiError && e.status === 401)) throw e
              }
              setAuth({ state: "signedOut" })
              navigate("/signin")
            }
          }
        : null,
    [auth, navigate]
  )

  if (auth.state === "loading")
    return (
      <main className="centered" aria-busy="true">
        <p className="muted">Loading…</p>
      </main>
    )
  if (auth.state === "failed")
    return (
      <main className="centered">
        <h1>The board is unreachable</h1>
        <p role="alert">{auth.message}</p>
        <button type="button" className="button" onClick={() => void loadMe()}>
          Try again
        </button>
      </main>
    )

  // an array, which Switch reads route by route (a fragment alone it would not)
  const linkPages = [
    <Route key="invite" path="/invite/:token">
      {(params) => <InvitePage token={params.token} onSignedIn={loadMe} />}
    </Route>,
    <Route key="reset" path="/reset-password/:token">
      {(params) => <ResetPasswordPage token={params.token} onSignedIn={loadMe} />}
    </Route>
  ]

  if (session === null) {
    if (isLinkPage(location)) return <Switch>{linkPages}</Switch>
    if (isAuthPage(location))
      return (
        <Switch>
          <Route path="/signin">
            <SignInPage onSignedIn={loadMe} />
          </Route>
          <Route path="/signup">
            <SignUpPage onSignedIn={loadMe} />
          </Route>
        </Switch>
      )
    // keep where the person wanted to go
    const next = `${location}${window.location.search}`
    return <Redirect to={next === "/" ? "/signin" : `/signin?next=${encodeURIComponent(next)}`} replace />
  }

  if (isLinkPage(location))
    return (
      <SessionContext.Provider value={session}>
        <Switch>{linkPages}</Switch>
      </SessionContext.Provider>
    )

  return (
    <SessionContext.Provider value={session}>
      <Layout>
        <Switch>
          <Route path="/signin">
            <SignedInRedirect />
          </Route>
          <Route path="/signup">
            <SignedInRedirect />
          </Route>
          <Route path="/" component={HomePage} />
          <Route path="/user/keys" component={KeysPage} />
          <Route path="/w/:workspaceId">
            {(params) => <WorkspacePage key={params.workspaceId} workspaceId={params.workspaceId} />}
          </Route>
          <Route path="/p/:projectId/links">{(params) => <LinksPage projectId={params.projectId} />}</Route>
          <Route path="/p/:projectId">
            {(params) => <BoardPage key={params.projectId} projectId={params.projectId} />}
          </Route>
          <Route>
            <h1>Page not found</h1>
            <p>
              <a href="/">Back to your workspaces</a>
            </p>
          </Route>
        </Switch>
      </Layout>
    </SessionContext.Provider>
  )
}

/** A signed-in person on /signin goes where `?next=` says (after signing in), else home. */
function SignedInRedirect() {
  const next = new URLSearchParams(window.location.search).get("next")
  return <Redirect to={safeNext(next)} replace />
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>
)
