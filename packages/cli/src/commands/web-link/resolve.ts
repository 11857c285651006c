/** A project link named by its id or by its URL (as submitted, or normalised). */
import { Effect } from "effect"
import type { ProjectId, ProjectLinkId } from "@board/core/contract"
import { BoardApi } from "../../support/client.ts"
import { failure } from "../../support/failure.ts"
import { isUuid } from "../../support/lookup.ts"

const loose = (url: string) => url.trim().toLowerCase().replace(/#.*$/, "").replace(/\/+$/, "")

export const projectLinkId = Effect.fnUntraced(function* (projectId: ProjectId, spec: string) {
  // an id the user typed: the server checks it
  if (isUuid(spec.trim())) return spec.trim() as ProjectLinkId
  if (!/^https?:\/\//i.test(spec.trim()))
    return yield* failure(`name a link by its id or its URL (board web-link list shows both)`)
  const { client } = yield* BoardApi
  const want = loose(spec)
  for (let offset = 0; ; offset += 500) {
    const page = yield* client.links.list({ params: { projectId }, query: { limit: 500, offset } })
    const hit = page.links.find((l) => loose(l.url) === want || loose(l.normalizedUrl) === want)
    if (hit !== undefined) return hit.id
    if (offset + page.links.length >= page.total || page.links.length === 0) break
  }
  return yield* failure(`no link ${spec} in this project; board web-link list shows them`)
})
