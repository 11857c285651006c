import { useEffect, useId, useState } from "react"
import { api } from "../../api.ts"
import type { CardLink } from "../../types.ts"
import { ErrorLine, errorText, type SectionProps, useAction } from "./shared.tsx"

const LINK_TYPES = ["relates_to", "blocks", "duplicates", "is_part_of"] as const

/** How a link reads from this card: "blocks WEB-4", or from the other end "blocked by WEB-4". */
const phrase = (l: CardLink): string => {
  const outgoing: Record<string, string> = {
    relates_to: "relates to",
    blocks: "blocks",
    duplicates: "duplicates",
    is_part_of: "is part of"
  }
  const incoming: Record<string, string> = {
    relates_to: "relates to",
    blocks: "is blocked by",
    duplicates: "is duplicated by",
    is_part_of: "contains"
  }
  return (l.direction === "outgoing" ? outgoing : incoming)[l.linkType] ?? l.linkType
}

export function CardLinksSection({ card, changed, version }: SectionProps) {
  const { error, busy, run, setError } = useAction(changed)
  const id = useId()
  const [links, setLinks] = useState<ReadonlyArray<CardLink> | null>(null)
  const [target, setTarget] = useState("")
  const [type, setType] = useState<(typeof LINK_TYPES)[number]>("relates_to")
  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` is the refresh signal (SectionProps)
  useEffect(() => {
    let live = true
    api.GET("/v1/cards/{id}/links", { params: { path: { id: card.id } } }).then(
      (l) => live && setLinks(l),
      (e) => live && setError(errorText(e))
    )
    return () => {
      live = false
    }
  }, [card.id, version, setError])
  return (
    <section className="panel-section" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>Linked cards</h3>
      {links !== null && links.length === 0 && <p className="panel-muted">No linked cards.</p>}
      <ul className="panel-list">
        {(links ?? []).map((l) => (
          <li key={l.id} className="panel-link-row">
            <span>
              {phrase(l)} <strong>{l.card.ref}</strong> {l.card.title}
            </span>
            <button
              type="button"
              className="icon-button"
              aria-label={`Remove link to ${l.card.ref}`}
              disabled={busy}
              onClick={() => void run(() => api.DELETE("/v1/links/{id}", { params: { path: { id: l.id } } }))}
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
          const t = target.trim()
          if (t === "") return
          void run(async () => {
            // a ref (WEB-12) names a card among the projects the caller sees; the link needs its id
            const other = await api.GET("/v1/cards/{id}", { params: { path: { id: t } } })
            await api.POST("/v1/cards/{id}/links", {
              params: { path: { id: card.id } },
              body: { targetId: other.id, linkType: type }
            })
          }).then((ok) => ok && setTarget(""))
        }}
      >
        <label htmlFor={`${id}-type`} className="visually-hidden">
          Link type
        </label>
        <select id={`${id}-type`} value={type} onChange={(e) => setType(e.target.value as typeof type)}>
          {LINK_TYPES.map((t) => (
            <option key={t} value={t}>
              {t.replaceAll("_", " ")}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-target`} className="visually-hidden">
          Card ref or id to link
        </label>
        <input
          id={`${id}-target`}
          placeholder="Card ref (WEB-12) or id"
          value={target}
          onChange={(e) => setTarget(e.target.value)}
        />
        <button type="submit" disabled={busy || target.trim() === ""}>
          Link card
        </button>
      </form>
      <ErrorLine error={error} />
    </section>
  )
}
