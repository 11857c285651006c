/**
 * The names a command contains, resolved against the boards the principal can see (the rules
 * are in Commands.ts's header): the board context, cards by ref or title, and the labels a
 * command attaches (created when missing). Everything the caller can fix is an InvalidInput.
 */
import { Effect } from "effect"
import type { Labels } from "../board/Labels.ts"
import type { CardHit, LabelHit, Lookups, ProjectRef } from "../board/Lookups.ts"
import { cardLabel, listOf, quote } from "../board/names.ts"
import { decodeInput } from "../domain/decode.ts"
import {
  type Conflict,
  type Forbidden,
  InvalidInput,
  type NotFound,
  type WorkspaceNotGranted
} from "../domain/errors.ts"
import type { ProjectId } from "../domain/ids.ts"
import type { Principal } from "../domain/Principal.ts"
import { Name } from "../domain/text.ts"
import type { CommandAction } from "./intents.ts"
import type { CardRefOrTitle } from "./parseCommand.ts"

/** What a command can fail with: a name it cannot resolve (400), the access rule (403 grant or role, 409 archived). */
export type Failure = InvalidInput | NotFound | WorkspaceNotGranted | Forbidden | Conflict

export const invalid = (message: string) => new InvalidInput({ message })

/** The resolvers, on the layer's Lookups and Labels. */
export const commandNames = (lookups: Lookups["Service"], labels: Labels["Service"]) => {
  // --- the board context ---------------------------------------------------------------

  /** The project of `projectId`, checked like every other access (NotFound, WorkspaceNotGranted). */
  const givenProject = Effect.fnUntraced(function* (
    principal: Principal,
    projectId: ProjectId
  ): Effect.fn.Return<ProjectRef, Failure> {
    return yield* lookups.project(principal, projectId)
  })

  /** The only project the principal can see; otherwise the caller must say which. */
  const soleProject = Effect.fnUntraced(function* (
    principal: Principal,
    why: string
  ): Effect.fn.Return<ProjectRef, InvalidInput> {
    const projects = yield* lookups.visibleProjects(principal)
    if (projects.length === 1) return projects[0]!
    if (projects.length === 0) return yield* invalid(`${why}, but you have no project; create one first`)
    return yield* invalid(
      `${why}: you can see ${projects.length} projects (${listOf(projects.map((p) => `${quote(p.name)} ${p.id}`))}); ` +
        `pass projectId to say which`
    )
  })

  // --- names to ids ----------------------------------------------------------------------

  const cardByRef = Effect.fnUntraced(function* (
    principal: Principal,
    ref: string,
    fixed: ProjectRef | undefined
  ): Effect.fn.Return<CardHit, Failure> {
    // a command looks only where the credential reaches: a ref beyond it is no card either
    const none = () =>
      invalid(
        fixed !== undefined
          ? `no card ${ref} in project ${quote(fixed.name)}`
          : `no card ${ref} in the projects you can see`
      )
    return yield* lookups
      .cardByRef(principal, ref, { projectId: fixed?.id, remedy: "pass projectId to say which" })
      .pipe(Effect.catchTags({ NotFound: none, WorkspaceNotGranted: none }))
  })

  const cardByTitle = Effect.fnUntraced(function* (
    project: ProjectRef,
    title: string
  ): Effect.fn.Return<CardHit, InvalidInput> {
    const { cards: hits, exact } = yield* lookups.cardsByTitle(project, title)
    if (hits.length === 1) return hits[0]!
    if (hits.length === 0) return yield* invalid(`no card matches ${quote(title)} in project ${quote(project.name)}`)
    const shown = hits.slice(0, 5).map(cardLabel)
    const more = hits.length > 5 ? " and more" : ""
    return yield* invalid(
      `ambiguous: ${exact ? "several cards are titled" : "several card titles contain"} ${quote(title)}: ` +
        `${shown.join(", ")}${more}; use the ref`
    )
  })

  /**
   * Resolves the cards a command names, refs first so that a title can be looked up in the
   * project of a ref named alongside it ("\"Fix login\" blocks WEB-5").
   */
  const resolveCards = Effect.fnUntraced(function* (
    principal: Principal,
    names: ReadonlyArray<CardRefOrTitle>,
    fixed: ProjectRef | undefined
  ): Effect.fn.Return<ReadonlyArray<CardHit>, Failure> {
    const found = new Map<number, CardHit>()
    let context = fixed
    for (const [i, name] of names.entries()) {
      if (!("ref" in name)) continue
      const hit = yield* cardByRef(principal, name.ref, fixed)
      found.set(i, hit)
      context ??= hit.project
    }
    for (const [i, name] of names.entries()) {
      if (!("title" in name)) continue
      context ??= yield* soleProject(principal, `to find the card ${quote(name.title)} by its title I need its project`)
      found.set(i, yield* cardByTitle(context, name.title))
    }
    return names.map((_, i) => found.get(i)!)
  })

  const resolveCard = (principal: Principal, name: CardRefOrTitle, fixed: ProjectRef | undefined) =>
    Effect.map(resolveCards(principal, [name], fixed), (hits) => hits[0]!)

  /**
   * The project's label of this name, created when it does not exist yet (so "add label bug
   * to WEB-4" works on a board without a "bug" label); a creation is reported as a
   * `label.created` action.
   */
  const ensureLabel = Effect.fnUntraced(function* (
    principal: Principal,
    project: ProjectRef,
    name: string,
    actions: Array<CommandAction>
  ): Effect.fn.Return<LabelHit, Failure> {
    const { label, created } = yield* labels.ensure(principal, { projectId: project.id, name })
    if (created) actions.push({ type: "label.created", labelId: label.id, name: label.name })
    return label
  })

  // a label's name decoded as the contract decodes one (`LabelEnsure`), named as the command said it
  const decodeLabelName = (name: string) => decodeInput(Name, `label ${quote(name)}`)(name)

  return { givenProject, soleProject, resolveCards, resolveCard, ensureLabel, decodeLabelName }
}

export type CommandNames = ReturnType<typeof commandNames>
