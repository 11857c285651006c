/**
 * The card's pull requests (issue 31): number, title and link, state, review and checks, as the
 * forge last reported them; and its shipped state. Read-only: the forge changes them.
 */
import { useEffect, useId, useState } from "react"
import { api } from "../../api.ts"
import type { PullRequest } from "../../types.ts"
import { ErrorLine, errorText, type SectionProps } from "./shared.tsx"

const REVIEW_TEXT: Record<string, string> = { approved: "approved", changes_requested: "changes requested" }
const CHECKS_TEXT: Record<string, string> = {
  pending: "checks running",
  success: "checks passed",
  failure: "checks failing"
}

export function PullRequestsSection({ card, version }: SectionProps) {
  const id = useId()
  const [prs, setPrs] = useState<ReadonlyArray<PullRequest> | null>(null)
  const [error, setError] = useState<string | null>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` is the refresh signal (SectionProps)
  useEffect(() => {
    let live = true
    api.GET("/v1/cards/{id}/pull-requests", { params: { path: { id: card.id } } }).then(
      (list) => live && setPrs(list),
      (e) => live && setError(errorText(e))
    )
    return () => {
      live = false
    }
  }, [card.id, version])
  if (card.shippedAt === null && (prs === null || prs.length === 0) && error === null) return null
  return (
    <section className="panel-section" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>Pull requests</h3>
      {card.shippedAt !== null && (
        <p className="pr-shipped">
          Shipped to <strong>{card.shippedTo}</strong> on{" "}
          <time dateTime={card.shippedAt}>{new Date(card.shippedAt).toLocaleString()}</time>
        </p>
      )}
      <ul className="panel-list">
        {(prs ?? []).map((pr) => (
          <li key={`${pr.repositoryId}-${pr.number}`} className="pr-row">
            <a href={pr.url} target="_blank" rel="noopener noreferrer">
              #{pr.number} {pr.title}
            </a>{" "}
            <span className={`pr-state pr-${pr.state}`}>{pr.state}</span>
            {pr.review !== null && <span className={`pr-review pr-${pr.review}`}> · {REVIEW_TEXT[pr.review]}</span>}
            {pr.checks !== null && (
              <span className={`pr-checks pr-checks-${pr.checks}`}> · {CHECKS_TEXT[pr.checks]}</span>
            )}
            {pr.closes && <span className="panel-muted"> · closes this card</span>}
          </li>
        ))}
      </ul>
      <ErrorLine error={error} />
    </section>
  )
}
