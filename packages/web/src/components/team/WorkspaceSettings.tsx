/** Rename a workspace (admins) and delete it (its owners), naming what the delete takes with it. */
import type { FormEvent } from "react"
import { useLocation } from "wouter"
import { api } from "../../api.ts"
import { reaches, type Role } from "../../lib/roles.ts"
import { ErrorLine, useAction } from "../../lib/ui.tsx"
import type { Project, Workspace } from "../../types.ts"
import { ConfirmDanger } from "./ConfirmDanger.tsx"

export function WorkspaceSettings({
  workspace,
  projects,
  reload
}: {
  workspace: Workspace
  projects: ReadonlyArray<Project>
  reload: () => void
}) {
  const [, navigate] = useLocation()
  const { error, busy, run } = useAction()
  const role: Role = workspace.role
  if (!reaches(role, "admin")) return null
  const path = { id: workspace.id }

  const rename = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const name = String(new FormData(e.currentTarget).get("name") ?? "").trim()
    if (name === "" || name === workspace.name) return
    if (await run(() => api.PATCH("/v1/workspaces/{id}", { params: { path }, body: { name } }))) reload()
  }
  const remove = () =>
    void run(() => api.DELETE("/v1/workspaces/{id}", { params: { path } })).then((ok) => ok && navigate("/"))

  const names = projects.map((p) => p.name)
  const loss =
    `Deleting ${workspace.name} deletes ${names.length === 0 ? "no project" : `${names.length} project${names.length === 1 ? "" : "s"} (${names.join(", ")})`}` +
    " with their boards, cards, comments, links and history, its webhooks and every membership. This cannot be undone."

  return (
    <section className="keys-section" aria-labelledby="settings-heading">
      <h2 id="settings-heading">Workspace settings</h2>
      <form className="inline-form" onSubmit={(e) => void rename(e)}>
        <label>
          Workspace name
          <input name="name" defaultValue={workspace.name} required maxLength={200} />
        </label>
        <button type="submit" className="button" disabled={busy}>
          Rename
        </button>
      </form>
      {role === "owner" && (
        <ConfirmDanger
          label="Delete workspace…"
          loss={loss}
          confirmLabel={`Delete ${workspace.name} for good`}
          onConfirm={remove}
          busy={busy}
        />
      )}
      <ErrorLine error={error} />
    </section>
  )
}
