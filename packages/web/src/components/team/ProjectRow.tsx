/** A project in its workspace's list: its link, and for admins rename, archive or restore, delete. */
import { type FormEvent, useState } from "react"
import { Link } from "wouter"
import { api } from "../../api.ts"
import { ErrorLine, useAction } from "../../lib/ui.tsx"
import type { Project } from "../../types.ts"
import { ConfirmDanger } from "./ConfirmDanger.tsx"

export function ProjectRow({ project, admin, reload }: { project: Project; admin: boolean; reload: () => void }) {
  const [renaming, setRenaming] = useState(false)
  const { error, busy, run } = useAction()
  const path = { id: project.id }
  const archived = project.archivedAt !== null
  const patch = (body: { name?: string; archived?: boolean }) =>
    run(() => api.PATCH("/v1/projects/{id}", { params: { path }, body }))

  const rename = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const name = String(new FormData(e.currentTarget).get("name") ?? "").trim()
    if (name !== "" && name !== project.name && !(await patch({ name }))) return
    setRenaming(false)
    reload()
  }
  const done = (ok: boolean) => ok && reload()

  return (
    <li className="keys-item project-row">
      {renaming ? (
        <form className="inline-form" onSubmit={(e) => void rename(e)}>
          <input
            name="name"
            aria-label={`New name for ${project.name}`}
            defaultValue={project.name}
            required
            maxLength={200}
          />
          <button type="submit" className="button small" disabled={busy}>
            Save
          </button>
          <button type="button" className="button small ghost" onClick={() => setRenaming(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <Link href={`/p/${project.id}`} className="project-link">
          <span className="project-name">{project.name}</span> <span className="muted">{project.refPrefix}</span>
          {archived && <span className="keys-badge">archived</span>}
        </Link>
      )}
      {admin && !renaming && (
        <span className="row">
          <button type="button" className="button small ghost" onClick={() => setRenaming(true)}>
            Rename<span className="visually-hidden"> {project.name}</span>
          </button>
          <button
            type="button"
            className="button small ghost"
            disabled={busy}
            onClick={() => void patch({ archived: !archived }).then(done)}
          >
            {archived ? "Restore" : "Archive"}
            <span className="visually-hidden"> {project.name}</span>
          </button>
          <ConfirmDanger
            label={`Delete ${project.name}…`}
            loss={`Deleting ${project.name} deletes its board, every card (${project.refPrefix}-…), comment, link, intake token, webhook and its history. This cannot be undone; archiving keeps them.`}
            confirmLabel={`Delete ${project.name} for good`}
            onConfirm={() => void run(() => api.DELETE("/v1/projects/{id}", { params: { path } })).then(done)}
            busy={busy}
          />
        </span>
      )}
      <ErrorLine error={error} />
    </li>
  )
}
