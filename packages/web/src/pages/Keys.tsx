/**
 * `/user/keys`: the credentials of the account. API keys (ApiKeys.tsx: create with scopes, a
 * project and an expiry, shown once; list; revoke),
 * intake tokens per column (create: shown once; list; revoke) and OAuth grants, the agents
 * connected to the account (list; revoke). Each list re-reads itself after a change.
 */
import { useEffect, useId, useState } from "react"
import { api } from "../api.ts"
import { ConfirmButton, SecretOnce } from "../components/SecretOnce.tsx"
import { ApiKeys } from "./ApiKeys.tsx"
import { useQuery } from "../lib/queryCache.ts"
import { ErrorLine, errorText, formatTime, useAction } from "../lib/ui.tsx"
import type { Column, Workspace } from "../types.ts"
import "../keys.css"

/** A list (null: nothing to ask yet), re-read on `reload`; its error is kept for the section to show. */
const useList = <T,>(key: string | null, read: () => Promise<ReadonlyArray<T>>) => {
  const { data, error, reload } = useQuery(key, read)
  return { items: key === null ? null : (data ?? null), error: error === undefined ? null : errorText(error), reload }
}

export function KeysPage() {
  const workspaces = useList("/v1/workspaces", () => api.GET("/v1/workspaces"))
  return (
    <section className="keys-page" aria-labelledby="keys-title">
      <h1 id="keys-title">Keys and connected agents</h1>
      <ApiKeys workspaces={workspaces.items ?? []} />
      <IntakeTokens workspaces={workspaces.items ?? []} />
      <Grants workspaces={workspaces.items} />
    </section>
  )
}

function IntakeTokens({ workspaces }: { workspaces: ReadonlyArray<Workspace> }) {
  const id = useId()
  const [workspaceId, setWorkspaceId] = useState("")
  const [projectId, setProjectId] = useState("")
  const [columnId, setColumnId] = useState("")
  const [name, setName] = useState("")
  const [created, setCreated] = useState<string | null>(null)
  const projects = useList(workspaceId === "" ? null : `/v1/workspaces/${workspaceId}/projects`, () =>
    api.GET("/v1/workspaces/{id}/projects", { params: { path: { id: workspaceId } } })
  )
  const [columns, setColumns] = useState<ReadonlyArray<Column>>([])
  const tokens = useList(projectId === "" ? null : `/v1/projects/${projectId}/intake-tokens`, () =>
    api.GET("/v1/projects/{projectId}/intake-tokens", { params: { path: { projectId } } })
  )
  const { error, busy, run, setError } = useAction(tokens.reload)

  // the first workspace is picked for the person: most accounts have one
  useEffect(() => {
    if (workspaceId === "" && workspaces.length > 0) setWorkspaceId(workspaces[0]!.id)
  }, [workspaces, workspaceId])
  useEffect(() => {
    if (projectId === "" && projects.items !== null && projects.items.length > 0) setProjectId(projects.items[0]!.id)
  }, [projects.items, projectId])
  useEffect(() => {
    setColumns([])
    setColumnId("")
    if (projectId === "") return
    let live = true
    api.GET("/v1/board/{projectId}", { params: { path: { projectId } } }).then(
      (b) => {
        if (!live) return
        setColumns(b.columns)
        setColumnId(b.columns[0]?.id ?? "")
      },
      (e) => live && setError(errorText(e))
    )
    return () => {
      live = false
    }
  }, [projectId, setError])

  const columnName = (cid: string) => columns.find((c) => c.id === cid)?.name ?? "a deleted column"
  const active = (tokens.items ?? []).filter((t) => t.revokedAt === null)
  return (
    <section className="keys-section" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Intake tokens</h2>
      <p className="keys-muted">
        An intake token files cards into one column and reads nothing back: for a form, a webhook or a script. Send it
        in <code>X-Intake-Key</code> to <code>POST /api/v1/intake</code>, from a server, never from a web page.
      </p>
      <div className="keys-pickers">
        <div className="keys-field">
          <label htmlFor={`${id}-ws`}>Workspace</label>
          <select
            id={`${id}-ws`}
            value={workspaceId}
            onChange={(e) => {
              setWorkspaceId(e.target.value)
              setProjectId("")
            }}
          >
            {workspaces.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </div>
        <div className="keys-field">
          <label htmlFor={`${id}-project`}>Project</label>
          <select id={`${id}-project`} value={projectId} onChange={(e) => setProjectId(e.target.value)}>
            {(projects.items ?? []).length === 0 && <option value="">No projects</option>}
            {(projects.items ?? []).map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </div>
        <div className="keys-field">
          <label htmlFor={`${id}-column`}>Column</label>
          <select id={`${id}-column`} value={columnId} onChange={(e) => setColumnId(e.target.value)}>
            {columns.length === 0 && <option value="">No columns</option>}
            {columns.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      <form
        className="keys-inline"
        onSubmit={(e) => {
          e.preventDefault()
          if (columnId === "") return
          void run(async () => {
            const t = await api.POST("/v1/intake-tokens", {
              body: { columnId, ...(name.trim() === "" ? {} : { name: name.trim() }) }
            })
            setCreated(t.token)
            setName("")
          })
        }}
      >
        <label htmlFor={`${id}-name`}>Token name</label>
        <input
          id={`${id}-name`}
          value={name}
          maxLength={200}
          placeholder="e.g. support form"
          onChange={(e) => setName(e.target.value)}
        />
        <button type="submit" disabled={busy || columnId === ""}>
          Create intake token
        </button>
      </form>
      {created !== null && <SecretOnce label="Your new intake token" value={created} onDone={() => setCreated(null)} />}
      <ErrorLine error={error ?? tokens.error ?? projects.error} />
      {tokens.items !== null && active.length === 0 && (
        <p className="keys-muted">No active intake tokens in this project.</p>
      )}
      <ul className="keys-list">
        {active.map((t) => (
          <li key={t.id} className="keys-item">
            <div>
              <strong>{t.name ?? "Unnamed token"}</strong> → {columnName(t.columnId)}
              <div className="keys-muted">
                Created {formatTime(t.createdAt)}
                {t.expiresAt !== null && <> · expires {formatTime(t.expiresAt)}</>}
              </div>
            </div>
            <ConfirmButton
              label={`Revoke ${t.name ?? "token"}`}
              confirmLabel={`Yes, revoke ${t.name ?? "token"}`}
              disabled={busy}
              onConfirm={() => void run(() => api.DELETE("/v1/intake-tokens/{id}", { params: { path: { id: t.id } } }))}
            />
          </li>
        ))}
      </ul>
    </section>
  )
}

/** `workspaces` is null while they load: a grant is listed only then, or its workspaces would read "left". */
function Grants({ workspaces }: { workspaces: ReadonlyArray<Workspace> | null }) {
  const id = useId()
  const grants = useList("/v1/oauth/grants", () => api.GET("/v1/oauth/grants"))
  const { error, busy, run } = useAction(grants.reload)
  const workspaceName = (w: string) => workspaces?.find((x) => x.id === w)?.name ?? "a workspace you left"
  const listed = workspaces === null ? null : grants.items
  return (
    <section className="keys-section" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Connected agents</h2>
      <p className="keys-muted">
        Agents you allowed through OAuth, and the workspaces each may use. Revoking one ends its access at once.
      </p>
      <ErrorLine error={error ?? grants.error} />
      {listed !== null && listed.length === 0 && <p className="keys-muted">No connected agents.</p>}
      <ul className="keys-list">
        {(listed ?? []).map((g) => {
          const name = g.clientName ?? g.clientId
          return (
            <li key={g.id} className="keys-item">
              <div>
                <strong>{name}</strong>
                <div className="keys-muted">
                  {g.workspaces.length === 0 ? "No workspaces" : g.workspaces.map(workspaceName).join(", ")} · scope{" "}
                  {g.scope}
                </div>
                <div className="keys-muted">
                  Connected {formatTime(g.createdAt)} ·{" "}
                  {g.lastUsedAt === null ? "never used" : `last used ${formatTime(g.lastUsedAt)}`}
                </div>
              </div>
              <ConfirmButton
                label={`Revoke ${name}`}
                confirmLabel={`Yes, revoke ${name}`}
                disabled={busy}
                onConfirm={() =>
                  void run(() => api.DELETE("/v1/oauth/grants/{id}", { params: { path: { id: g.id } } }))
                }
              />
            </li>
          )
        })}
      </ul>
    </section>
  )
}
