/**
 * `/w/:workspaceId`: one workspace: its projects (archived ones marked; admins rename, archive,
 * restore, delete), its members (roles, kind; admins change roles and remove; anyone leaves),
 * invitations (admins) and its settings (rename; delete for owners). What the caller's role
 * (the workspace list's `role`) does not allow is not offered.
 */
import { useCallback, useEffect, useState } from "react"
import { Link } from "wouter"
import { api } from "../api.ts"
import { Invitations } from "../components/team/Invitations.tsx"
import { MembersList } from "../components/team/Members.tsx"
import { ProjectRow } from "../components/team/ProjectRow.tsx"
import { WorkspaceSettings } from "../components/team/WorkspaceSettings.tsx"
import { reaches } from "../lib/roles.ts"
import { ErrorLine, errorText } from "../lib/ui.tsx"
import type { Member, Project, Workspace } from "../types.ts"
import "../keys.css"

interface Loaded {
  readonly workspace: Workspace
  readonly projects: ReadonlyArray<Project>
  readonly members: ReadonlyArray<Member>
}

export function WorkspacePage({ workspaceId }: { workspaceId: string }) {
  const [loaded, setLoaded] = useState<Loaded | null>(null)
  const [error, setError] = useState<string | null>(null)
  const load = useCallback(async () => {
    try {
      const workspace = (await api.GET("/v1/workspaces")).find((w) => w.id === workspaceId)
      if (workspace === undefined) {
        setError("You are not a member of this workspace (or it was deleted). Ask one of its admins for an invitation.")
        return
      }
      const path = { id: workspaceId }
      // `archived=true` lists the archived ones only: both lists, the archived after
      const [active, archived, members] = await Promise.all([
        api.GET("/v1/workspaces/{id}/projects", { params: { path } }),
        api.GET("/v1/workspaces/{id}/projects", { params: { path, query: { archived: "true" } } }),
        api.GET("/v1/workspaces/{id}/members", { params: { path } })
      ])
      setLoaded({ workspace, projects: [...active, ...archived], members })
      setError(null)
    } catch (e) {
      setError(errorText(e))
    }
  }, [workspaceId])
  useEffect(() => {
    void load()
  }, [load])
  const reload = useCallback(() => void load(), [load])

  if (loaded === null)
    return (
      <div className="keys-page">
        <h1>Workspace</h1>
        <ErrorLine error={error} />
        {error === null && <p className="muted">Loading…</p>}
        <Link href="/">Back to your workspaces</Link>
      </div>
    )
  const { workspace, projects, members } = loaded
  const admin = reaches(workspace.role, "admin")
  return (
    <div className="keys-page workspace-page">
      <h1>{workspace.name}</h1>
      <p className="muted">
        Your role: <strong data-my-role={workspace.role}>{workspace.role}</strong>
      </p>
      <ErrorLine error={error} />
      <section className="keys-section" aria-labelledby="projects-heading">
        <h2 id="projects-heading">Projects</h2>
        {projects.length === 0 && <p className="muted">No projects yet.</p>}
        <ul className="keys-list">
          {projects.map((p) => (
            <ProjectRow key={p.id} project={p} admin={admin} reload={reload} />
          ))}
        </ul>
      </section>
      <section className="keys-section" aria-labelledby="members-heading">
        <h2 id="members-heading">Members</h2>
        <MembersList
          workspaceId={workspace.id}
          workspaceName={workspace.name}
          myRole={workspace.role}
          members={members}
          reload={reload}
        />
      </section>
      {admin && <Invitations workspaceId={workspace.id} myRole={workspace.role} />}
      <WorkspaceSettings workspace={workspace} projects={projects} reload={reload} />
    </div>
  )
}
