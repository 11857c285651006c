import { useId, useState } from "react"
import { api } from "../../api.ts"
import type { Label } from "../../types.ts"
import { ErrorLine, type SectionProps, useAction } from "./shared.tsx"

/** The card's labels: detach one, attach one of the project's, or create a new one and attach it. */
export function LabelsSection({
  card,
  labels,
  changed,
  onLabelCreated
}: SectionProps & { onLabelCreated: (label: Label) => void }) {
  const { error, busy, run } = useAction(changed)
  const id = useId()
  const [pick, setPick] = useState("")
  const [name, setName] = useState("")
  const [color, setColor] = useState("#2563eb")
  const attached = new Set(card.labels.map((l) => l.id))
  const available = labels.filter((l) => !attached.has(l.id))
  const attach = (labelId: string) =>
    api.POST("/v1/cards/{id}/labels", { params: { path: { id: card.id } }, body: { labelId } })
  return (
    <section className="panel-section" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>Labels</h3>
      {card.labels.length === 0 ? (
        <p className="panel-muted">No labels.</p>
      ) : (
        <ul className="panel-chips">
          {card.labels.map((l) => (
            <li key={l.id} className="panel-chip">
              <span className="panel-swatch" style={{ background: l.color ?? "var(--muted, #6b7280)" }} aria-hidden />
              {l.name}
              <button
                type="button"
                className="chip-remove"
                aria-label={`Remove label ${l.name}`}
                disabled={busy}
                onClick={() =>
                  void run(() =>
                    api.DELETE("/v1/cards/{id}/labels/{labelId}", { params: { path: { id: card.id, labelId: l.id } } })
                  )
                }
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {available.length > 0 && (
        <form
          className="panel-inline"
          onSubmit={(e) => {
            e.preventDefault()
            if (pick !== "") void run(() => attach(pick)).then((ok) => ok && setPick(""))
          }}
        >
          <label htmlFor={`${id}-pick`} className="visually-hidden">
            Label to add
          </label>
          <select id={`${id}-pick`} value={pick} onChange={(e) => setPick(e.target.value)}>
            <option value="">Choose a label…</option>
            {available.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </select>
          <button type="submit" disabled={busy || pick === ""}>
            Add label
          </button>
        </form>
      )}
      <form
        className="panel-inline"
        onSubmit={(e) => {
          e.preventDefault()
          const n = name.trim()
          if (n === "") return
          void run(async () => {
            const label = await api.POST("/v1/labels", { body: { projectId: card.projectId, name: n, color } })
            // offered at once (the stream's label.created says the same, later)
            onLabelCreated(label)
            await attach(label.id)
          }).then((ok) => ok && setName(""))
        }}
      >
        <label htmlFor={`${id}-name`} className="visually-hidden">
          New label name
        </label>
        <input
          id={`${id}-name`}
          placeholder="New label"
          value={name}
          maxLength={200}
          onChange={(e) => setName(e.target.value)}
        />
        <label htmlFor={`${id}-color`} className="visually-hidden">
          New label colour
        </label>
        <input id={`${id}-color`} type="color" value={color} onChange={(e) => setColor(e.target.value)} />
        <button type="submit" disabled={busy || name.trim() === ""}>
          Create label
        </button>
      </form>
      <ErrorLine error={error} />
    </section>
  )
}
