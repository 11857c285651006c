import { useEffect, useId, useMemo, useState } from "react"
import { api } from "../../api.ts"
import { memberNames } from "../../lib/actors.ts"
import type { Comment } from "../../types.ts"
import { ActorName } from "../ActorName.tsx"
import { Markdown } from "./Markdown.tsx"
import { ErrorLine, errorText, formatTime, type Me, type SectionProps, useAction } from "./shared.tsx"

type CommentPage = Awaited<ReturnType<typeof readComments>>
const readComments = (id: string) =>
  api.GET("/v1/cards/{id}/comments", { params: { path: { id }, query: { limit: PAGE } } })

const PAGE = 500

/** People and agents talk on the card: the comments, oldest first, and a box to add one. */
export function CommentsSection({ card, members, me, changed, version }: SectionProps) {
  const names = useMemo(() => memberNames(members), [members])
  const { error, busy, run, setError } = useAction(changed)
  const id = useId()
  const [page, setPage] = useState<CommentPage | null>(null)
  const [body, setBody] = useState("")
  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` is the refresh signal (SectionProps)
  useEffect(() => {
    let live = true
    readComments(card.id).then(
      (p) => live && setPage(p),
      (e) => live && setError(errorText(e))
    )
    return () => {
      live = false
    }
  }, [card.id, version, setError])
  return (
    <section className="panel-section" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>
        Comments {page !== null && page.total > 0 && <span className="panel-muted">{page.total}</span>}
      </h3>
      {page !== null && page.total > page.comments.length && (
        <p className="panel-muted">
          Showing the first {page.comments.length} of {page.total} comments.
        </p>
      )}
      <ol className="panel-comments">
        {(page?.comments ?? []).map((c) => (
          <CommentItem key={c.id} comment={c} me={me} changed={changed} names={names} />
        ))}
      </ol>
      <form
        className="panel-field"
        onSubmit={(e) => {
          e.preventDefault()
          if (body.trim() !== "")
            void run(() =>
              api.POST("/v1/cards/{id}/comments", { params: { path: { id: card.id } }, body: { body } })
            ).then((ok) => ok && setBody(""))
        }}
      >
        <label htmlFor={`${id}-new`}>Add a comment</label>
        <textarea
          id={`${id}-new`}
          rows={3}
          value={body}
          maxLength={10000}
          placeholder="Markdown is supported"
          onChange={(e) => setBody(e.target.value)}
        />
        <div className="panel-actions">
          <button type="submit" disabled={busy || body.trim() === ""}>
            Comment
          </button>
        </div>
      </form>
      <ErrorLine error={error} />
    </section>
  )
}

function CommentItem({
  comment,
  me,
  changed,
  names
}: {
  comment: Comment
  me: Me
  changed: () => void
  names: ReadonlyMap<string, string>
}) {
  const { error, busy, run } = useAction(changed)
  const id = useId()
  const [editing, setEditing] = useState(false)
  const [text, setText] = useState(comment.body)
  // a person edits their own comments; what an agent wrote in their name stays the agent's
  const mine = comment.author.type === "user" && comment.author.userId === me.id
  return (
    <li className="panel-comment">
      <div className="panel-comment-head">
        <ActorName actor={comment.author} members={names} strong />
        <time dateTime={comment.createdAt}>{formatTime(comment.createdAt)}</time>
        {comment.updatedAt !== comment.createdAt && <span className="panel-muted">(edited)</span>}
      </div>
      {editing ? (
        <div className="panel-field">
          <label htmlFor={`${id}-edit`} className="visually-hidden">
            Edit comment
          </label>
          <textarea id={`${id}-edit`} rows={3} value={text} onChange={(e) => setText(e.target.value)} />
          <div className="panel-actions">
            <button
              type="button"
              disabled={busy || text.trim() === ""}
              onClick={async () => {
                if (
                  await run(() =>
                    api.PATCH("/v1/comments/{id}", { params: { path: { id: comment.id } }, body: { body: text } })
                  )
                )
                  setEditing(false)
              }}
            >
              Save comment
            </button>
            <button type="button" className="secondary" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <Markdown text={comment.body} />
      )}
      {mine && !editing && (
        <div className="panel-actions">
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setText(comment.body)
              setEditing(true)
            }}
          >
            Edit
          </button>
          <button
            type="button"
            className="link-button danger-text"
            disabled={busy}
            onClick={() => void run(() => api.DELETE("/v1/comments/{id}", { params: { path: { id: comment.id } } }))}
          >
            Delete
          </button>
        </div>
      )}
      <ErrorLine error={error} />
    </li>
  )
}
