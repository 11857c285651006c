/** Every signed-in page: the header (home, the project's tabs, keys, who is signed in) and `<main>`. */
import { type ReactNode, useState } from "react"
import { Link, useRoute } from "wouter"
import { useSession } from "../lib/session.ts"
import { ErrorLine, errorText } from "../lib/ui.tsx"

export function Layout({ children }: { children: ReactNode }) {
  const { me, signOut } = useSession()
  const [onBoard, boardParams] = useRoute<{ projectId: string }>("/p/:projectId")
  const [onLinks, linksParams] = useRoute<{ projectId: string }>("/p/:projectId/links")
  const projectId = boardParams?.projectId ?? linksParams?.projectId
  const [signOutError, setSignOutError] = useState<string | null>(null)
  const onSignOut = () => {
    setSignOutError(null)
    signOut().catch((e: unknown) => setSignOutError(`Could not sign out: ${errorText(e)}`))
  }
  return (
    <div className="app">
      <header className="app-header">
        <Link href="/" className="app-name" aria-label="Board, home: your workspaces">
          <span aria-hidden="true" className="app-logo">
            ▦
          </span>
          Board
        </Link>
        {projectId !== undefined && (
          <nav aria-label="Project" className="tabs">
            <Link href={`/p/${projectId}`} className="tab" aria-current={onBoard ? "page" : undefined}>
              Board
            </Link>
            <Link href={`/p/${projectId}/links`} className="tab" aria-current={onLinks ? "page" : undefined}>
              Links
            </Link>
          </nav>
        )}
        <nav aria-label="Account" className="header-end">
          <Link href="/" className="header-link">
            Home
          </Link>
          <Link href="/user/keys" className="header-link">
            Keys
          </Link>
          <span className="user" title={me.email}>
            {me.full_name || me.email}
          </span>
          <button type="button" className="button ghost" onClick={onSignOut}>
            Sign out
          </button>
        </nav>
      </header>
      <ErrorLine error={signOutError} />
      <main className="app-main">{children}</main>
    </div>
  )
}
