/**
 * The API keys section of `/user/keys` (issue 33): create a key with its limits in one step
 * (what it may do: read, write, delete, admin; which project, or every one; when it ends),
 * shown once; list the keys with their limits; revoke.
 */
import { useEffect, useId, useState } from "react"
import { api } from "../api.ts"
import { ConfirmButton, SecretOnce } from "../components/SecretOnce.tsx"
import { useQuery } from "../lib/queryCache.ts"
import { ErrorLine, errorText, formatTime, useAction } from "../lib/ui.tsx"
import type { Workspace } from "../types.ts"

const SCOPES = [
  ["read", "Read"],
  ["write", "Create and change"],
  ["delete", "Delete"],
  ["admin", "Manage (members, projects, webhooks, keys)"]
] as const
type Scope = (typeof SCOPES)[number][0]

/** The lifetimes offered, in days (0: never ends). */
const LIFETIMES = [
  [0, "Never"],
  [7, "7 days"],
  [30, "30 days"],
  [90, "90 days"],
  [365, "1 year"]
] as const

interface ProjectChoice {
  readonly id: string
  readonly label: string
}

/** Every project of the person's workspaces, named with its workspace when there are several. */
const useProjects = (workspaces: ReadonlyArray<Workspace>) => {
  const [projects, setProjects] = useState<ReadonlyArray<ProjectChoice>>([])
  const ids = workspaces.map((w) => w.id).join(",")
  // biome-ignore lint/correctness/useExhaustiveDependencies: `ids` stands for the workspaces
  useEffect(() => {
    let live = true
    Promise.all(
      workspaces.map((w) =>
        api
          .GET("/v1/workspaces/{id}/projects", { params: { path: { id: w.id } } })
          .then((ps) => ps.map((p) => ({ id: p.id, label: workspaces.length > 1 ? `${w.name} / ${p.name}` : p.name })))
      )
    ).then(
      (lists) => live && setProjects(lists.flat()),
      () => live && setProjects([])
    )
    return () => {
      live = false
    }
  }, [ids])
  return projects
}

export function ApiKeys({ workspaces }: { workspaces: ReadonlyArray<Workspace> }) {
  const id = useId()
  const { data, error: listError, reload } = useQuery("/v1/api-keys", () => api.GET("/v1/api-keys"))
  const keys = data ?? null
  const { error, busy, run } = useAction(reload)
  const projects = useProjects(workspaces)
  const [name, setName] = useState("")
  const [scopes, setScopes] = useState<ReadonlyArray<Scope>>(SCOPES.map(([s]) => s))
  const [projectId, setProjectId] = useState("")
  const [days, setDays] = useState(0)
  const [created, setCreated] = useState<string | null>(null)
  const projectName = (p: string) => projects.find((x) => x.id === p)?.label ?? "a deleted project"
  const everything = scopes.length === SCOPES.length
  return (
    <section className="keys-section" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>API keys</h2>
      <p className="keys-muted">
        An API key acts for you: send it in the <code>X-API-Key</code> header. Give an agent or a script only what it
        needs: a key that only reads, for one project, that ends by itself.
      </p>
      <form
        className="keys-create"
        onSubmit={(e) => {
          e.preventDefault()
          const n = name.trim()
          if (n === "" || scopes.length === 0) return
          void run(async () => {
            const k = await api.POST("/v1/api-keys", {
              body: {
                name: n,
                ...(everything ? {} : { scopes: [...scopes] }),
                ...(projectId === "" ? {} : { projectIds: [projectId] }),
                ...(days === 0 ? {} : { expiresAt: new Date(Date.now() + days * 86_400_000).toISOString() })
              }
            })
            setCreated(k.rawKey)
            setName("")
          })
        }}
      >
        <div className="keys-pickers">
          <div className="keys-field">
            <label htmlFor={`${id}-name`}>Key name</label>
            <input
              id={`${id}-name`}
              value={name}
              maxLength={200}
              placeholder="e.g. laptop CLI"
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <div className="keys-field">
            <label htmlFor={`${id}-project`}>Project</label>
            <select id={`${id}-project`} value={projectId} onChange={(e) => setProjectId(e.target.value)}>
              <option value="">Every project</option>
              {projects.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.label}
                </option>
              ))}
            </select>
          </div>
          <div className="keys-field">
            <label htmlFor={`${id}-expires`}>Expires</label>
            <select id={`${id}-expires`} value={days} onChange={(e) => setDays(Number(e.target.value))}>
              {LIFETIMES.map(([d, label]) => (
                <option key={d} value={d}>
                  {label}
                </option>
              ))}
            </select>
          </div>
        </div>
        <fieldset className="keys-scopes">
          <legend>It may</legend>
          {SCOPES.map(([scope, label]) => (
            <label key={scope}>
              <input
                type="checkbox"
                checked={scopes.includes(scope)}
                onChange={(e) =>
                  setScopes((was) =>
                    SCOPES.map(([s]) => s).filter((s) => (s === scope ? e.target.checked : was.includes(s)))
                  )
                }
              />{" "}
              {label}
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={busy || name.trim() === "" || scopes.length === 0}>
          Create API key
        </button>
      </form>
      {created !== null && <SecretOnce label="Your new API key" value={created} onDone={() => setCreated(null)} />}
      <ErrorLine error={error ?? (listError === undefined ? null : errorText(listError))} />
      {keys !== null && keys.length === 0 && <p className="keys-muted">No API keys.</p>}
      <ul className="keys-list">
        {(keys ?? []).map((k) => (
          <li key={k.id} className="keys-item">
            <div>
              <strong>{k.name}</strong>
              {k.current && <span className="keys-badge">this session’s key</span>}
              <div className="keys-muted">
                {k.scopes.length === SCOPES.length ? "Everything" : `Only ${k.scopes.join(", ")}`} ·{" "}
                {k.projectIds === null ? "every project" : k.projectIds.map(projectName).join(", ")} ·{" "}
                {k.expiresAt === null ? "never expires" : `expires ${formatTime(k.expiresAt)}`}
              </div>
              <div className="keys-muted">Created {formatTime(k.createdAt)}</div>
            </div>
            <ConfirmButton
              label={`Revoke ${k.name}`}
              confirmLabel={`Yes, revoke ${k.name}`}
              disabled={busy}
              onConfirm={() => void run(() => api.DELETE("/v1/api-keys/{id}", { params: { path: { id: k.id } } }))}
            />
          </li>
        ))}
      </ul>
    </section>
  )
}
