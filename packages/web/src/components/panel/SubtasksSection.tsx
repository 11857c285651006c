import { useId, useState } from "react"
import { api } from "../../api.ts"
import { ErrorLine, SavingCheckbox, type SectionProps, useAction } from "./shared.tsx"

export function SubtasksSection({ card, changed }: SectionProps) {
  const { error, busy, run } = useAction(changed)
  const id = useId()
  const [title, setTitle] = useState("")
  const done = card.subtasks.filter((s) => s.completed).length
  return (
    <section className="panel-section" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>
        Subtasks{" "}
        {card.subtasks.length > 0 && (
          <span className="panel-muted">
            {done}/{card.subtasks.length}
          </span>
        )}
      </h3>
      <ul className="panel-list">
        {card.subtasks.map((s) => (
          <li key={s.id} className="panel-subtask">
            {/* biome-ignore lint/a11y/noLabelWithoutControl: SavingCheckbox is the <input> it labels */}
            <label className="panel-check">
              <SavingCheckbox
                checked={s.completed}
                disabled={busy}
                onChange={() =>
                  void run(() => api.POST("/v1/subtasks/{id}/toggle", { params: { path: { id: s.id } } }))
                }
              />
              <span className={s.completed ? "done" : undefined}>{s.title}</span>
            </label>
            <button
              type="button"
              className="icon-button"
              aria-label={`Delete subtask ${s.title}`}
              disabled={busy}
              onClick={() => void run(() => api.DELETE("/v1/subtasks/{id}", { params: { path: { id: s.id } } }))}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <form
        className="panel-inline"
        onSubmit={(e) => {
          e.preventDefault()
          const t = title.trim()
          if (t !== "")
            void run(() => api.POST("/v1/subtasks", { body: { cardId: card.id, title: t } })).then(
              (ok) => ok && setTitle("")
            )
        }}
      >
        <label htmlFor={`${id}-new`} className="visually-hidden">
          New subtask
        </label>
        <input
          id={`${id}-new`}
          placeholder="New subtask"
          value={title}
          maxLength={500}
          onChange={(e) => setTitle(e.target.value)}
        />
        <button type="submit" disabled={busy || title.trim() === ""}>
          Add subtask
        </button>
      </form>
      <ErrorLine error={error} />
    </section>
  )
}
