/** `/`: the person's workspaces with their projects; create a workspace, create a project (kanban). */
import { type FormEvent, useCallback, useEffect, useState } from "react"
import { Link, useLocation } from "wouter"
import { api } from "../api.ts"
import type { Project, Workspace } from "../types.ts"

interface Entry {
  readonly workspace: Workspace
  readonly projects: ReadonlyArray<Project>
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e))

export function HomePage() {
  const [entries, setEntries] = useState<ReadonlyArray<Entry> | null>(null)
  const [error, setError] = useState<string | null>(null)

  const load = useCallback(async () => {
    try {
      const workspaces = await api.GET("/v1/workspaces")
      const projects = await Promise.all(
        workspaces.map((w) => api.GET("/v1/workspaces/{id}/projects", { params: { path: { id: w.id } } }))
      )
      setEntries(workspaces.map((workspace, i) => ({ workspace, projects: projects[i] ?? [] })))
    } catch (e) {
      setError(errorText(e))
    }
  }, [])

  useEffect(() => {
    void load()
  }, [load])

  return (
    <div className="home">
      <h1>Your workspaces</h1>
      {error !== null && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {entries === null && error === null && <p className="muted">Loading…</p>}
      {entries?.length === 0 && <p className="muted">You have no workspace yet: create one to start a board.</p>}
      {entries?.map(({ workspace, projects }) => (
        <section key={workspace.id} className="workspace" aria-labelledby={`ws-${workspace.id}`}>
          <h2 id={`ws-${workspace.id}`}>
            <Link href={`/w/${workspace.id}`}>{workspace.name}</Link>
          </h2>
          <p className="muted">
            Your role: {workspace.role} · <Link href={`/w/${workspace.id}`}>Members and settings</Link>
          </p>
          {projects.length === 0 ? (
            <p className="muted">No projects yet.</p>
          ) : (
            <ul className="project-list">
              {projects.map((p) => (
                <li key={p.id}>
                  <Link href={`/p/${p.id}`} className="project-link">
                    <span className="project-name">{p.name}</span>
                    <span className="muted">{p.refPrefix}</span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
          {workspace.role !== "viewer" && <CreateProject workspace={workspace} />}
        </section>
      ))}
      <CreateWorkspace onCreated={load} />
    </div>
  )
}

function CreateProject({ workspace }: { workspace: Workspace }) {
  const [, navigate] = useLocation()
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const name = String(new FormData(e.currentTarget).get("name") ?? "").trim()
    if (name === "") return
    setBusy(true)
    setError(null)
    try {
      const created = await api.POST("/v1/projects", { body: { workspaceId: workspace.id, name, template: "kanban" } })
      navigate(`/p/${created.project.id}`)
    } catch (err) {
      setError(errorText(err))
      setBusy(false)
    }
  }
  return (
    <form className="inline-form" onSubmit={(e) => void submit(e)}>
      <label className="visually-hidden" htmlFor={`new-project-${workspace.id}`}>
        New project in {workspace.name}
      </label>
      <input id={`new-project-${workspace.id}`} name="name" placeholder="New project name" required maxLength={200} />
      <button type="submit" className="button" disabled={busy}>
        Create project
      </button>
      {error !== null && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </form>
  )
}

function CreateWorkspace({ onCreated }: { onCreated: () => Promise<void> }) {
  const [error, setError] = useState<string | null>(null)
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const formElement = e.currentTarget
    const name = String(new FormData(formElement).get("name") ?? "").trim()
    if (name === "") return
    setError(null)
    try {
      await api.POST("/v1/workspaces", { body: { name } })
      formElement.reset()
      await onCreated()
    } catch (err) {
      setError(errorText(err))
    }
  }
  return (
    <section className="workspace new" aria-labelledby="new-workspace">
      <h2 id="new-workspace">New workspace</h2>
      <form className="inline-form" onSubmit={(e) => void submit(e)}>
        <label className="visually-hidden" htmlFor="new-workspace-name">
          Workspace name
        </label>
        <input id="new-workspace-name" name="name" placeholder="Workspace name" required maxLength={200} />
        <button type="submit" className="button">
          Create workspace
        </button>
        {error !== null && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
      </form>
    </section>
  )
}
