/** Search the project's cards (`GET /v1/search`, titles and descriptions); a result opens its card. */
import { type FormEvent, useState } from "react"
import { Link } from "wouter"
import { api } from "../api.ts"
import type { Card } from "../types.ts"

export function BoardSearch({ projectId }: { projectId: string }) {
  const [results, setResults] = useState<ReadonlyArray<Card> | null>(null)
  const [query, setQuery] = useState("")
  const [error, setError] = useState<string | null>(null)

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const q = query.trim()
    if (q === "") {
      setResults(null)
      return
    }
    setError(null)
    try {
      setResults(await api.GET("/v1/search", { params: { query: { q, projectId, limit: 20 } } }))
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
      setResults(null)
    }
  }

  const close = () => setResults(null)

  return (
    <search className="board-search">
      <form onSubmit={(e) => void submit(e)}>
        <input
          type="search"
          aria-label="Search cards"
          placeholder="Search cards"
          value={query}
          maxLength={200}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => e.key === "Escape" && close()}
        />
      </form>
      {error !== null && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {results !== null && (
        // biome-ignore lint/a11y/noStaticElementInteractions: Escape closes the results it holds
        <div className="search-results" onKeyDown={(e) => e.key === "Escape" && close()}>
          <p role="status" className="muted">
            {results.length === 0 ? "No card matches." : `${results.length} ${results.length === 1 ? "card" : "cards"}`}
          </p>
          <ul>
            {results.map((card) => (
              <li key={card.id}>
                <Link href={`/p/${projectId}?card=${card.id}`} onClick={close}>
                  <span className="ref">{card.ref}</span> {card.title}
                </Link>
              </li>
            ))}
          </ul>
          <button type="button" className="button small ghost" onClick={close}>
            Close results
          </button>
        </div>
      )}
    </search>
  )
}
