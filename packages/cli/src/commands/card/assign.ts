/**
 * `board card assign` and `board card unassign`: people by email (members of the card's
 * workspace), agent members by name (issue 30), or @me.
 */
import type { UserId } from "@board/core/contract"
import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { failure, usageError } from "../../support/failure.ts"
import { examples } from "../../support/format.ts"
import { listOf, Lookup } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"
import { Settings } from "../../support/settings.ts"
import type { Card, Member } from "../../support/types.ts"
import { projectOption } from "../shared.ts"

export interface CardAssignOptions {
  readonly card: string
  /** Emails of members of the card's workspace, or `@me`. */
  readonly people: ReadonlyArray<string>
  readonly project?: string
}

/** How a member is named here: a person by email, an agent by its name and mark. */
const nameOf = (m: Member) => (m.kind === "agent" ? `${m.fullName} [agent]` : m.email)

/** The user ids of `people` among the members of the card's workspace. */
const resolvePeople = Effect.fnUntraced(function* (card: Card, people: ReadonlyArray<string>) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const settings = yield* Settings
  const project = (yield* lookup.projects()).find((p) => p.id === card.projectId)
  if (project === undefined) return yield* failure(`cannot find the project of ${card.ref}`)
  const members = yield* client.members.list({ params: { id: project.workspaceId } })
  const ids: Array<UserId> = []
  for (const person of people) {
    // the API has no "who am I": @me is the account `board login` saved
    const email = person === "@me" ? settings.config.email : person
    if (email === undefined) {
      return yield* usageError("@me needs the account `board login` saved; name yourself by email instead")
    }
    const wanted = email.trim().toLowerCase()
    // a person by email; an agent member (no email) by its name
    const member = members.find((m) =>
      m.kind === "agent" ? m.fullName.toLowerCase() === wanted : m.email.toLowerCase() === wanted
    )
    if (member === undefined) {
      return yield* failure(
        `${email} is not a member of ${project.workspaceName} (members: ${listOf(members.map(nameOf))})`
      )
    }
    ids.push(member.userId)
  }
  return { ids, members }
})

const run = (mode: "assign" | "unassign") =>
  Effect.fn(`card.${mode}`)(function* (options: CardAssignOptions) {
    const { client } = yield* BoardApi
    const lookup = yield* Lookup
    const out = yield* Output
    if (options.people.length === 0) return yield* usageError("name at least one person: an email or @me")
    const card = yield* lookup.card(options.card, options.project)
    const { ids, members } = yield* resolvePeople(card, options.people)
    const named = new Set<string>(ids)
    const assigneeIds =
      mode === "assign"
        ? [...card.assigneeIds, ...ids.filter((id) => !card.assigneeIds.includes(id))]
        : card.assigneeIds.filter((id) => !named.has(id))
    const updated = yield* client.board.updateCard({ params: { id: card.id }, payload: { assigneeIds } })
    const emails = updated.assigneeIds.map((id) => {
      const m = members.find((x) => x.userId === id)
      return m === undefined ? id : nameOf(m)
    })
    yield* out.message(
      emails.length === 0 ? `${updated.ref} has no assignees.` : `${updated.ref} is assigned to ${listOf(emails)}.`
    )
    yield* out.result(updated, () => updated.ref)
  })

export const runCardAssign = run("assign")
export const runCardUnassign = run("unassign")

export const registerCardAssign = (card: Command, app: App) => {
  card
    .command("assign")
    .description("assign people (members of the card's workspace) to a card")
    .argument("<card>", "the card's ref (WEB-12), id or title")
    .argument("<people...>", "@me, members' emails, or agent members' names")
    .addOption(projectOption())
    .addHelpText("after", examples("board card assign WEB-12 @me", "board card assign WEB-12 ada@example.com @me"))
    .action((spec: string, people: Array<string>, flags: { project?: string }, cmd: Command) =>
      app.run(cmd, { card: spec, people, ...flags }, runCardAssign)
    )
  card
    .command("unassign")
    .description("take people off a card")
    .argument("<card>", "the card's ref (WEB-12), id or title")
    .argument("<people...>", "@me or members' emails")
    .addOption(projectOption())
    .addHelpText("after", examples("board card unassign WEB-12 @me"))
    .action((spec: string, people: Array<string>, flags: { project?: string }, cmd: Command) =>
      app.run(cmd, { card: spec, people, ...flags }, runCardUnassign)
    )
}
