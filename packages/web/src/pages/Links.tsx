/**
 * `/p/:projectId/links`: the project's external links with their relevance to the board, newest
 * first, filtered by rating; submit a link, review one (set its relevance, with a reason),
 * evaluate it again (the heuristic replaces a human review), delete it.
 */
import { useCallback, useEffect, useId, useState } from "react"
import { api } from "../api.ts"
import { ConfirmButton } from "../components/SecretOnce.tsx"
import type { paths } from "../lib/api-types.ts"
import { ErrorLine, errorText, formatTime, useAction } from "../lib/ui.tsx"
import type { ProjectLink } from "../types.ts"
import "../keys.css"

const RELEVANCES = ["none", "low", "medium", "high"] as const
const FILTERS = ["", "unrated", ...RELEVANCES] as const
const PAGE = 50

type LinkPage = paths["/v1/projects/{projectId}/links"]["get"]["responses"][200]["content"]["application/json"]
type Relevance = (typeof RELEVANCES)[number]

/** Only http(s) URLs become links (the server accepts no other; this holds for old rows too). */
const safeHref = (url: string) => (/^https?:\/\//i.test(url) ? url : undefined)

export function LinksPage({ projectId }: { projectId: string }) {
  const id = useId()
  const [filter, setFilter] = useState<(typeof FILTERS)[number]>("")
  const [offset, setOffset] = useState(0)
  const [page, setPage] = useState<LinkPage | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [projectName, setProjectName] = useState<string | null>(null)

  const reload = useCallback(() => {
    const query = { limit: PAGE, offset, ...(filter === "" ? {} : { relevance: filter }) }
    api.GET("/v1/projects/{projectId}/links", { params: { path: { projectId }, query } }).then(
      (p) => {
        setPage(p)
        setLoadError(null)
      },
      (e) => setLoadError(errorText(e))
    )
  }, [projectId, filter, offset])
  useEffect(reload, [reload])
  useEffect(() => {
    api.GET("/v1/board/{projectId}", { params: { path: { projectId } } }).then(
      (b) => setProjectName(b.project.name),
      () => {}
    )
  }, [projectId])

  return (
    <section className="keys-page links-page" aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`}>{projectName === null ? "Project links" : `Links of ${projectName}`}</h1>
      <SubmitLink projectId={projectId} onSubmitted={reload} />
      <div className="keys-inline">
        <label htmlFor={`${id}-filter`}>Show</label>
        <select
          id={`${id}-filter`}
          value={filter}
          onChange={(e) => {
            setFilter(e.target.value as typeof filter)
            setOffset(0)
          }}
        >
          {FILTERS.map((f) => (
            <option key={f} value={f}>
              {f === "" ? "all links" : f === "unrated" ? "not rated yet" : `relevance ${f}`}
            </option>
          ))}
        </select>
        {page !== null && (
          <span className="keys-muted" aria-live="polite">
            {page.total} {page.total === 1 ? "link" : "links"}
          </span>
        )}
      </div>
      <ErrorLine error={loadError} />
      {page !== null && page.links.length === 0 && <p className="keys-muted">No links here yet.</p>}
      <ul className="keys-list links-list">
        {(page?.links ?? []).map((l) => (
          <LinkItem key={l.id} link={l} projectId={projectId} changed={reload} />
        ))}
      </ul>
      {page !== null && page.total > PAGE && (
        <nav className="keys-inline" aria-label="Pages of links">
          <button
            type="button"
            className="secondary"
            disabled={offset === 0}
            onClick={() => setOffset(Math.max(0, offset - PAGE))}
          >
            Newer
          </button>
          <span className="keys-muted">
            {offset + 1}–{Math.min(offset + PAGE, page.total)} of {page.total}
          </span>
          <button
            type="button"
            className="secondary"
            disabled={offset + PAGE >= page.total}
            onClick={() => setOffset(offset + PAGE)}
          >
            Older
          </button>
        </nav>
      )}
    </section>
  )
}

function SubmitLink({ projectId, onSubmitted }: { projectId: string; onSubmitted: () => void }) {
  const id = useId()
  const { error, busy, run } = useAction(onSubmitted)
  const [url, setUrl] = useState("")
  const [title, setTitle] = useState("")
  const [note, setNote] = useState("")
  const [tags, setTags] = useState("")
  const [result, setResult] = useState<string | null>(null)
  return (
    <form
      className="keys-section links-submit"
      aria-labelledby={`${id}-h`}
      onSubmit={(e) => {
        e.preventDefault()
        setResult(null)
        const tagList = tags
          .split(",")
          .map((t) => t.trim())
          .filter((t) => t !== "")
        void run(async () => {
          const r = await api.POST("/v1/projects/{projectId}/links", {
            params: { path: { projectId } },
            body: {
              url: url.trim(),
              ...(title.trim() === "" ? {} : { title: title.trim() }),
              ...(note.trim() === "" ? {} : { note: note.trim() }),
              ...(tagList.length === 0 ? {} : { tags: tagList })
            }
          })
          setResult(
            r.created
              ? `Added; rated ${r.link.relevance ?? "not yet"}.`
              : "That page was already stored: it is the link shown in the list."
          )
          setUrl("")
          setTitle("")
          setNote("")
          setTags("")
        })
      }}
    >
      <h2 id={`${id}-h`}>Submit a link</h2>
      <div className="keys-pickers">
        <div className="keys-field wide">
          <label htmlFor={`${id}-url`}>URL</label>
          <input
            id={`${id}-url`}
            type="url"
            required
            maxLength={2048}
            value={url}
            placeholder="https://…"
            onChange={(e) => setUrl(e.target.value)}
          />
        </div>
        <div className="keys-field">
          <label htmlFor={`${id}-title`}>Title</label>
          <input id={`${id}-title`} maxLength={200} value={title} onChange={(e) => setTitle(e.target.value)} />
        </div>
        <div className="keys-field">
          <label htmlFor={`${id}-tags`}>Tags (comma-separated)</label>
          <input id={`${id}-tags`} value={tags} onChange={(e) => setTags(e.target.value)} />
        </div>
        <div className="keys-field wide">
          <label htmlFor={`${id}-note`}>Note</label>
          <textarea
            id={`${id}-note`}
            rows={2}
            maxLength={2000}
            value={note}
            onChange={(e) => setNote(e.target.value)}
          />
        </div>
      </div>
      <button type="submit" disabled={busy || url.trim() === ""}>
        Submit link
      </button>
      <p className="keys-status" aria-live="polite">
        {result}
      </p>
      <ErrorLine error={error} />
    </form>
  )
}

function LinkItem({ link, projectId, changed }: { link: ProjectLink; projectId: string; changed: () => void }) {
  const id = useId()
  const { error, busy, run } = useAction(changed)
  const [relevance, setRelevance] = useState<Relevance | "">(link.relevance ?? "")
  const [reason, setReason] = useState("")
  useEffect(() => setRelevance(link.relevance ?? ""), [link.relevance])
  const path = { path: { projectId, linkId: link.id } }
  const label = link.title ?? link.url
  const short = label.length > 40 ? `${label.slice(0, 39)}…` : label
  const href = safeHref(link.url)
  return (
    <li className="keys-item link-item">
      <div className="link-main">
        {href === undefined ? (
          <strong>{label}</strong>
        ) : (
          <a href={href} target="_blank" rel="noopener noreferrer">
            <strong>{label}</strong>
          </a>
        )}
        {link.title !== null && <div className="keys-muted link-url">{link.url}</div>}
        {link.note !== null && <p className="link-note">{link.note}</p>}
        {link.tags.length > 0 && (
          <ul className="link-tags" aria-label="Tags">
            {link.tags.map((t) => (
              <li key={t}>{t}</li>
            ))}
          </ul>
        )}
        <div className="keys-muted">
          <span className={`relevance relevance-${link.relevance ?? "unrated"}`}>
            {link.relevance === null ? "not rated" : `relevance ${link.relevance}`}
          </span>{" "}
          {link.evaluation_source === "human"
            ? `reviewed${link.reviewedAt === null ? "" : ` ${formatTime(link.reviewedAt)}`}`
            : link.evaluation_source === "heuristic"
              ? `rated by the board${link.score === null ? "" : ` (score ${link.score})`}`
              : ""}
          {" · added "}
          {formatTime(link.createdAt)}
        </div>
        {link.reviewReason !== null && <p className="link-note">Reason: {link.reviewReason}</p>}
        {link.evidence !== null && link.evidence.length > 0 && (
          <ul className="link-evidence" aria-label="Why it rated so">
            {link.evidence.map((e, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: evidence items have no id and never reorder
              <li key={i}>{e.detail}</li>
            ))}
          </ul>
        )}
      </div>
      <form
        className="link-review"
        onSubmit={(e) => {
          e.preventDefault()
          if (relevance === "") return
          void run(() =>
            api.PATCH("/v1/projects/{projectId}/links/{linkId}", {
              params: path,
              body: { relevance, ...(reason.trim() === "" ? {} : { reason: reason.trim() }) }
            })
          ).then((ok) => ok && setReason(""))
        }}
      >
        <label htmlFor={`${id}-rel`}>Relevance</label>
        <select id={`${id}-rel`} value={relevance} onChange={(e) => setRelevance(e.target.value as Relevance)}>
          <option value="" disabled>
            choose…
          </option>
          {RELEVANCES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-reason`} className="visually-hidden">
          Reason for the review
        </label>
        <input
          id={`${id}-reason`}
          placeholder="Reason (optional)"
          maxLength={2000}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
        <div className="keys-inline">
          <button type="submit" disabled={busy || relevance === ""}>
            Save review
          </button>
          <button
            type="button"
            className="secondary"
            disabled={busy}
            onClick={() =>
              void run(() => api.POST("/v1/projects/{projectId}/links/{linkId}/evaluate", { params: path }))
            }
          >
            Evaluate
          </button>
          <ConfirmButton
            label={`Delete ${short}`}
            confirmLabel={`Yes, delete ${short}`}
            disabled={busy}
            onConfirm={() => void run(() => api.DELETE("/v1/projects/{projectId}/links/{linkId}", { params: path }))}
          />
        </div>
      </form>
      <ErrorLine error={error} />
    </li>
  )
}
