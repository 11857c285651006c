/**
 * Natural-language commands executed by the core `Commands` service against a real server on each
 * database, every one checked against the board state read back over HTTP afterwards.
 *
 * Each case of the table seeds its own cards (titles and label names carry a fresh token), so the
 * cases are independent of each other and of their order. Placeholders in a command:
 *   {A} {B}  refs of the seeded cards (in seed order); {a} the ref of A in lower case
 *   {u} {U}  the case's token, as is and upper-cased
 */
import { checkedId, decodeInput, type Principal, ProjectId } from "@board/core"
import { Effect } from "effect"
import * as crypto from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type CommandResult, Commands } from "../packages/core/src/nlu/Commands.ts"
import type { IntentType } from "../packages/core/src/nlu/parseCommand.ts"
import { backends } from "./support/backends.ts"
import { type Account, bootstrap, call, key } from "./support/client.ts"
import { startServer, type TestServer } from "./support/server.ts"

type ColumnName = "To Do" | "In Progress" | "Done"

interface SeedCard {
  readonly title: string
  readonly column?: ColumnName
  readonly priority?: "low" | "medium" | "high" | "urgent"
  readonly description?: string
  /** Label names, created in the project when missing, attached to the card. */
  readonly labels?: ReadonlyArray<string>
  readonly subtasks?: ReadonlyArray<{ readonly title: string; readonly completed?: boolean }>
}

/** What a check sees. Every read goes over HTTP with the owner's API key. */
interface T {
  readonly u: string
  /** The seeded cards as read back after seeding (labels and subtasks included). */
  readonly seeded: ReadonlyArray<any>
  readonly res: CommandResult
  readonly col: (name: ColumnName) => string
  /** GET /v1/cards/{id}; expects 200. */
  readonly card: (id: string) => Promise<any>
  readonly cardStatus: (id: string) => Promise<number>
  readonly board: () => Promise<any>
  /** GET /v1/cards/{id}/links; expects 200. */
  readonly links: (id: string) => Promise<ReadonlyArray<any>>
  /** The card of the first `card.created` action, read back; also checks `result` is that card. */
  readonly created: () => Promise<any>
}

interface Case {
  readonly command: string
  readonly intent: IntentType
  readonly seed?: ReadonlyArray<SeedCard>
  /** Project labels made before the command, not attached to anything. */
  readonly labels?: ReadonlyArray<string>
  /** `given` (default): the command runs with the project's id; `inferred`: without one. */
  readonly project?: "given" | "inferred"
  readonly check: (t: T) => Promise<void>
}

const types = (res: CommandResult) => res.actions.map((a) => a.type)
const names = (labels: ReadonlyArray<{ name: string }>) => labels.map((l) => l.name)

/** The card moved and the action says where. */
const movedTo = async (t: T, column: ColumnName, position?: number) => {
  const card = await t.card(t.seeded[0].id)
  expect(card.columnId).toBe(t.col(column))
  if (position !== undefined) expect(card.position).toBe(position)
  expect(t.res.actions).toEqual([
    { type: "card.moved", cardId: card.id, ref: card.ref, columnId: t.col(column), position: card.position }
  ])
  expect(t.res.result).toMatchObject({ id: card.id, columnId: t.col(column), position: card.position })
  return card
}

const updatedField = async (t: T, field: "title" | "priority" | "description", value: unknown) => {
  const card = await t.card(t.seeded[0].id)
  expect(card[field]).toEqual(value)
  expect(t.res.actions).toEqual([{ type: "card.updated", cardId: card.id, ref: card.ref, fields: [field] }])
  expect(t.res.result).toEqual(card)
  return card
}

const labelAdded = async (t: T, label: string, createdLabel: boolean) => {
  const card = await t.card(t.seeded[0].id)
  const attached = card.labels.filter((l: any) => l.name.toLowerCase() === label.toLowerCase())
  expect(attached).toHaveLength(1)
  const onBoard = (await t.board()).labels.filter((l: any) => l.name.toLowerCase() === label.toLowerCase())
  expect(onBoard).toHaveLength(1)
  expect(types(t.res)).toEqual(createdLabel ? ["label.created", "label.attached"] : ["label.attached"])
  expect(t.res.actions.at(-1)).toEqual({ type: "label.attached", cardId: card.id, labelId: attached[0].id })
  expect(t.res.result).toEqual(card)
}

const labelRemoved = async (t: T, label: string) => {
  const before = t.seeded[0]
  const card = await t.card(before.id)
  const removed = before.labels.find((l: any) => l.name === label)
  expect(names(card.labels)).not.toContain(label)
  expect(card.labels).toHaveLength(before.labels.length - 1)
  expect(t.res.actions).toEqual([{ type: "label.detached", cardId: card.id, labelId: removed.id }])
  // the label itself stays in the project
  expect(names((await t.board()).labels)).toContain(label)
}

const subtaskAdded = async (t: T, title: string) => {
  const card = await t.card(t.seeded[0].id)
  const subtask = card.subtasks.find((s: any) => s.title === title)
  expect(subtask).toMatchObject({ title, completed: false })
  expect(card.subtasks).toHaveLength(t.seeded[0].subtasks.length + 1)
  expect(t.res.actions).toEqual([{ type: "subtask.created", subtaskId: subtask.id, cardId: card.id }])
  expect(t.res.result).toEqual(card)
}

const subtaskState = async (t: T, title: string, completed: boolean) => {
  const card = await t.card(t.seeded[0].id)
  const subtask = card.subtasks.find((s: any) => s.title === title)
  expect(subtask.completed).toBe(completed)
  // the other subtasks are untouched
  for (const other of t.seeded[0].subtasks.filter((s: any) => s.title !== title)) {
    expect(card.subtasks.find((s: any) => s.id === other.id).completed).toBe(other.completed)
  }
  expect(t.res.actions).toEqual([
    { type: completed ? "subtask.completed" : "subtask.reopened", subtaskId: subtask.id, cardId: card.id }
  ])
  expect(t.res.result).toEqual(card)
}

/** One link `source` → `target` of the type, seen from both ends, and the action naming it. */
const linked = async (t: T, source: any, target: any, linkType: string) => {
  const out = (await t.links(source.id)).filter((l) => l.targetId === target.id)
  expect(out).toHaveLength(1)
  expect(out[0]).toMatchObject({ sourceId: source.id, targetId: target.id, linkType, direction: "outgoing" })
  const back = (await t.links(target.id)).filter((l) => l.sourceId === source.id)
  expect(back).toHaveLength(1)
  expect(back[0]).toMatchObject({ id: out[0].id, direction: "incoming" })
  expect(t.res.actions).toEqual([
    { type: "link.created", linkId: out[0].id, sourceId: source.id, targetId: target.id, linkType }
  ])
  expect(t.res.result).toMatchObject({ id: out[0].id, sourceId: source.id, targetId: target.id, linkType })
}

const deleted = async (t: T) => {
  const gone = t.seeded[0]
  expect(await t.cardStatus(gone.id)).toBe(404)
  expect((await t.board()).cards.map((c: any) => c.id)).not.toContain(gone.id)
  expect(t.res.actions).toEqual([{ type: "card.deleted", cardId: gone.id, ref: gone.ref }])
  expect(t.res.result).toEqual({ deleted: { id: gone.id, ref: gone.ref } })
}

const found = async (t: T) => {
  expect(t.res.actions).toEqual([])
  const ids = (t.res.result as any).cards.map((c: any) => c.id)
  expect([...ids].sort()).toEqual(t.seeded.map((c) => c.id).sort())
  // searching changes nothing
  for (const seeded of t.seeded) expect(await t.card(seeded.id)).toEqual(seeded)
}

const shown = async (t: T) => {
  const card = await t.card(t.seeded[0].id)
  expect(card).toEqual(t.seeded[0])
  expect(t.res.actions).toEqual([])
  expect(t.res.result).toEqual(card)
}

const cases: ReadonlyArray<Case> = [
  // --- create_card -----------------------------------------------------------------------------
  {
    command: "create a card Fix login {u} in To Do with priority high labelled bug{u}, backend{u}",
    intent: "create_card",
    check: async (t) => {
      const card = await t.created()
      expect(card).toMatchObject({ title: `Fix login ${t.u}`, columnId: t.col("To Do"), priority: "high" })
      expect(names(card.labels)).toEqual([`backend${t.u}`, `bug${t.u}`])
      expect(types(t.res)).toEqual([
        "card.created",
        "label.created",
        "label.attached",
        "label.created",
        "label.attached"
      ])
      const boardLabels = names((await t.board()).labels)
      expect(boardLabels).toContain(`bug${t.u}`)
      expect(boardLabels).toContain(`backend${t.u}`)
    }
  },
  {
    command: 'add card "Write docs {u}" to Done',
    intent: "create_card",
    check: async (t) => {
      const card = await t.created()
      expect(card).toMatchObject({
        title: `Write docs ${t.u}`,
        columnId: t.col("Done"),
        priority: "medium",
        labels: []
      })
    }
  },
  {
    command: "new task: refactor search {u}, urgent",
    intent: "create_card",
    check: async (t) => {
      const card = await t.created()
      // no column named: the first column
      expect(card).toMatchObject({ title: `refactor search ${t.u}`, columnId: t.col("To Do"), priority: "urgent" })
    }
  },
  {
    command: "create card Log in page {u}",
    intent: "create_card",
    project: "inferred",
    check: async (t) => {
      const card = await t.created()
      expect(card).toMatchObject({ title: `Log in page ${t.u}`, columnId: t.col("To Do"), priority: "medium" })
      expect(t.res.actions).toEqual([
        { type: "card.created", cardId: card.id, ref: card.ref, columnId: card.columnId, position: card.position }
      ])
    }
  },
  {
    command: 'create card "Add to cart {u}" in In Progress',
    intent: "create_card",
    check: async (t) => {
      expect(await t.created()).toMatchObject({ title: `Add to cart ${t.u}`, columnId: t.col("In Progress") })
    }
  },
  {
    command: "create card Fix bug in parser {u} in To Do",
    intent: "create_card",
    project: "inferred",
    check: async (t) => {
      expect(await t.created()).toMatchObject({ title: `Fix bug in parser ${t.u}`, columnId: t.col("To Do") })
    }
  },
  {
    command: "create card Fix login {u} priority: urgent tags: auth{u}, ui{u}",
    intent: "create_card",
    check: async (t) => {
      const card = await t.created()
      expect(card).toMatchObject({ title: `Fix login ${t.u}`, priority: "urgent" })
      expect(names(card.labels)).toEqual([`auth${t.u}`, `ui${t.u}`])
    }
  },
  {
    command: "create a high priority card Fix login {u}",
    intent: "create_card",
    check: async (t) => {
      expect(await t.created()).toMatchObject({ title: `Fix login ${t.u}`, priority: "high", columnId: t.col("To Do") })
    }
  },
  {
    command: "create card Fix login {u} tagged with LBL{U}",
    intent: "create_card",
    labels: ["lbl{u}"],
    check: async (t) => {
      const card = await t.created()
      // the existing label, matched case-insensitively: none created
      expect(names(card.labels)).toEqual([`lbl${t.u}`])
      expect(types(t.res)).toEqual(["card.created", "label.attached"])
      expect((await t.board()).labels.filter((l: any) => l.name.toLowerCase() === `lbl${t.u}`)).toHaveLength(1)
    }
  },
  {
    command: "new ticket - Crash on save {u}, critical",
    intent: "create_card",
    check: async (t) => {
      expect(await t.created()).toMatchObject({ title: `Crash on save ${t.u}`, priority: "urgent" })
    }
  },
  {
    command: "add a new card named Fix login {u} to Done with priority low",
    intent: "create_card",
    check: async (t) => {
      expect(await t.created()).toMatchObject({ title: `Fix login ${t.u}`, columnId: t.col("Done"), priority: "low" })
    }
  },
  {
    command: "create card 'Don't crash {u}' in Done",
    intent: "create_card",
    check: async (t) => {
      expect(await t.created()).toMatchObject({ title: `Don't crash ${t.u}`, columnId: t.col("Done") })
    }
  },
  {
    command: "new card Fix login {u} in the done column",
    intent: "create_card",
    project: "inferred",
    check: async (t) => {
      expect(await t.created()).toMatchObject({ title: `Fix login ${t.u}`, columnId: t.col("Done") })
    }
  },
  // --- move_card -------------------------------------------------------------------------------
  {
    command: "move {A} to Done",
    intent: "move_card",
    seed: [{ title: "Move me {u}" }],
    check: async (t) => void (await movedTo(t, "Done"))
  },
  {
    command: "move {A} to Done",
    intent: "move_card",
    project: "inferred",
    seed: [{ title: "Move me {u}" }],
    check: async (t) => void (await movedTo(t, "Done"))
  },
  {
    command: 'move "Quoted move {u}" into In Progress',
    intent: "move_card",
    seed: [{ title: "Quoted move {u}" }],
    check: async (t) => void (await movedTo(t, "In Progress"))
  },
  {
    command: "put {A} in done at top",
    intent: "move_card",
    seed: [{ title: "Top me {u}" }, { title: "Already done {u}", column: "Done" }],
    check: async (t) => {
      await movedTo(t, "Done", 0)
      const other = await t.card(t.seeded[1].id)
      expect(other.position).toBe(t.seeded[1].position + 1)
    }
  },
  {
    command: "move {A} to in progress",
    intent: "move_card",
    seed: [{ title: "Lower column {u}" }],
    check: async (t) => void (await movedTo(t, "In Progress"))
  },
  {
    command: "move Unquoted move {u} to In Progress",
    intent: "move_card",
    project: "inferred",
    seed: [{ title: "Unquoted move {u}" }],
    check: async (t) => void (await movedTo(t, "In Progress"))
  },
  {
    command: "drag {A} to the Done column",
    intent: "move_card",
    seed: [{ title: "Dragged {u}" }],
    check: async (t) => void (await movedTo(t, "Done"))
  },
  {
    command: "move {A} to the top of Done",
    intent: "move_card",
    seed: [{ title: "Top of done {u}" }, { title: "Below {u}", column: "Done" }],
    check: async (t) => void (await movedTo(t, "Done", 0))
  },
  {
    command: "put {A} in Done at position 2",
    intent: "move_card",
    seed: [{ title: "Second place {u}" }, { title: "First place {u}", column: "Done" }],
    check: async (t) => {
      await movedTo(t, "Done", 1)
    }
  },
  {
    command: "move {A} to Done as the second card",
    intent: "move_card",
    seed: [{ title: "Runner up {u}" }, { title: "Winner {u}", column: "Done" }],
    check: async (t) => void (await movedTo(t, "Done", 1))
  },
  {
    command: "mark {A} as done",
    intent: "move_card",
    seed: [{ title: "Finished {u}", column: "In Progress" }],
    check: async (t) => void (await movedTo(t, "Done"))
  },
  {
    command: "Please move {a} to done!",
    intent: "move_card",
    seed: [{ title: "Polite {u}" }],
    check: async (t) => void (await movedTo(t, "Done"))
  },
  {
    command: "MOVE {A} TO DONE",
    intent: "move_card",
    seed: [{ title: "Shouted {u}" }],
    check: async (t) => void (await movedTo(t, "Done"))
  },
  {
    command: "move #{A} to In Progress",
    intent: "move_card",
    seed: [{ title: "Hashed {u}" }],
    check: async (t) => void (await movedTo(t, "In Progress"))
  },
  {
    command: "move {A} to Done at the bottom",
    intent: "move_card",
    seed: [{ title: "Bottom {u}" }, { title: "Above {u}", column: "Done" }],
    check: async (t) => {
      const card = await movedTo(t, "Done")
      const done = (await t.board()).cards.filter((c: any) => c.columnId === t.col("Done"))
      expect(done.at(-1).id).toBe(card.id)
      expect(card.position).toBe(done.length - 1)
    }
  },
  {
    command: 'move "partial thing {u}" to Done',
    intent: "move_card",
    seed: [{ title: "Refactor the partial thing {u} now" }],
    check: async (t) => void (await movedTo(t, "Done"))
  },
  {
    command: 'move "CASE TITLE {U}" to Done',
    intent: "move_card",
    project: "inferred",
    seed: [{ title: "Case title {u}" }, { title: "Case title {u} and more" }],
    check: async (t) => {
      // the exact title wins over the longer one containing it
      await movedTo(t, "Done")
      expect((await t.card(t.seeded[1].id)).columnId).toBe(t.col("To Do"))
    }
  },
  {
    command: "send {A} back to To Do",
    intent: "move_card",
    seed: [{ title: "Sent back {u}", column: "Done" }],
    check: async (t) => void (await movedTo(t, "To Do"))
  },
  // --- rename_card -----------------------------------------------------------------------------
  {
    command: "rename {A} to Better title {u}",
    intent: "rename_card",
    seed: [{ title: "Old title {u}" }],
    check: async (t) => void (await updatedField(t, "title", `Better title ${t.u}`))
  },
  {
    command: 'rename "Old name {u}" to "New name {u}"',
    intent: "rename_card",
    seed: [{ title: "Old name {u}" }],
    check: async (t) => void (await updatedField(t, "title", `New name ${t.u}`))
  },
  {
    command: "retitle {A}: Retitled {u}",
    intent: "rename_card",
    project: "inferred",
    seed: [{ title: "Before {u}" }],
    check: async (t) => void (await updatedField(t, "title", `Retitled ${t.u}`))
  },
  {
    command: "change the title of {A} to Go to market {u}",
    intent: "rename_card",
    seed: [{ title: "Launch {u}" }],
    check: async (t) => void (await updatedField(t, "title", `Go to market ${t.u}`))
  },
  {
    command: "set {A}'s title to Better {u}",
    intent: "rename_card",
    seed: [{ title: "Worse {u}" }],
    check: async (t) => void (await updatedField(t, "title", `Better ${t.u}`))
  },
  // --- set_priority ----------------------------------------------------------------------------
  {
    command: "set priority of {A} to urgent",
    intent: "set_priority",
    seed: [{ title: "Prio {u}" }],
    check: async (t) => void (await updatedField(t, "priority", "urgent"))
  },
  {
    command: "make {A} high priority",
    intent: "set_priority",
    seed: [{ title: "Prio {u}" }],
    check: async (t) => void (await updatedField(t, "priority", "high"))
  },
  {
    command: "mark {A} as urgent",
    intent: "set_priority",
    project: "inferred",
    seed: [{ title: "Prio {u}" }],
    check: async (t) => void (await updatedField(t, "priority", "urgent"))
  },
  {
    command: "prioritize {A} as low",
    intent: "set_priority",
    seed: [{ title: "Prio {u}", priority: "high" }],
    check: async (t) => void (await updatedField(t, "priority", "low"))
  },
  {
    command: "set priority high on {A}",
    intent: "set_priority",
    seed: [{ title: "Prio {u}" }],
    check: async (t) => void (await updatedField(t, "priority", "high"))
  },
  {
    command: "change {A} priority to critical",
    intent: "set_priority",
    seed: [{ title: "Prio {u}" }],
    check: async (t) => void (await updatedField(t, "priority", "urgent"))
  },
  {
    command: "set {A}'s priority to normal",
    intent: "set_priority",
    seed: [{ title: "Prio {u}", priority: "urgent" }],
    check: async (t) => void (await updatedField(t, "priority", "medium"))
  },
  {
    command: 'set priority of "Prio by title {u}" to low',
    intent: "set_priority",
    project: "inferred",
    seed: [{ title: "Prio by title {u}" }],
    check: async (t) => void (await updatedField(t, "priority", "low"))
  },
  // --- set_description -------------------------------------------------------------------------
  {
    command: "set description of {A} to Crashes on save.",
    intent: "set_description",
    seed: [{ title: "Desc {u}" }],
    check: async (t) => void (await updatedField(t, "description", "Crashes on save."))
  },
  {
    command: "describe {A} as The login page loops.",
    intent: "set_description",
    seed: [{ title: "Desc {u}", description: "old text" }],
    check: async (t) => void (await updatedField(t, "description", "The login page loops."))
  },
  {
    command: 'set the description of "Desc target {u}" to "Users loop"',
    intent: "set_description",
    seed: [{ title: "Desc target {u}" }],
    check: async (t) => void (await updatedField(t, "description", "Users loop"))
  },
  {
    command: 'describe {A}: Steps:\n1. open "Login"\n2. loop',
    intent: "set_description",
    seed: [{ title: "Desc {u}" }],
    check: async (t) => void (await updatedField(t, "description", 'Steps:\n1. open "Login"\n2. loop'))
  },
  {
    command: "clear the description of {A}",
    intent: "set_description",
    seed: [{ title: "Desc {u}", description: "something to clear" }],
    check: async (t) => void (await updatedField(t, "description", null))
  },
  // --- add_label -------------------------------------------------------------------------------
  {
    command: "label {A} as bug{u}",
    intent: "add_label",
    seed: [{ title: "Label me {u}" }],
    check: async (t) => labelAdded(t, `bug${t.u}`, true)
  },
  {
    command: "add label LBL{U} to {A}",
    intent: "add_label",
    labels: ["lbl{u}"],
    seed: [{ title: "Label me {u}" }],
    check: async (t) => labelAdded(t, `lbl${t.u}`, false)
  },
  {
    command: "tag {A} with needs{u}",
    intent: "add_label",
    project: "inferred",
    seed: [{ title: "Label me {u}" }],
    check: async (t) => labelAdded(t, `needs${t.u}`, true)
  },
  {
    command: "add the ui{u} label to {A}",
    intent: "add_label",
    labels: ["ui{u}"],
    seed: [{ title: "Label me {u}" }],
    check: async (t) => labelAdded(t, `ui${t.u}`, false)
  },
  {
    command: 'tag "Tag me {u}" as ux{u}',
    intent: "add_label",
    seed: [{ title: "Tag me {u}" }],
    check: async (t) => labelAdded(t, `ux${t.u}`, true)
  },
  {
    command: 'label {A} with "needs review {u}"',
    intent: "add_label",
    seed: [{ title: "Label me {u}" }],
    check: async (t) => labelAdded(t, `needs review ${t.u}`, true)
  },
  {
    command: "apply label frontend{u} to {A}",
    intent: "add_label",
    seed: [{ title: "Label me {u}", labels: ["other{u}"] }],
    check: async (t) => {
      await labelAdded(t, `frontend${t.u}`, true)
      expect(names((await t.card(t.seeded[0].id)).labels)).toEqual([`frontend${t.u}`, `other${t.u}`])
    }
  },
  // --- remove_label ----------------------------------------------------------------------------
  {
    command: "remove label bug{u} from {A}",
    intent: "remove_label",
    seed: [{ title: "Unlabel me {u}", labels: ["bug{u}", "keep{u}"] }],
    check: async (t) => labelRemoved(t, `bug${t.u}`)
  },
  {
    command: "untag {A} BUG{U}",
    intent: "remove_label",
    seed: [{ title: "Unlabel me {u}", labels: ["bug{u}"] }],
    check: async (t) => labelRemoved(t, `bug${t.u}`)
  },
  {
    command: "take label bug{u} off {A}",
    intent: "remove_label",
    project: "inferred",
    seed: [{ title: "Unlabel me {u}", labels: ["bug{u}", "keep{u}"] }],
    check: async (t) => labelRemoved(t, `bug${t.u}`)
  },
  {
    command: "remove the bug{u} label from {A}",
    intent: "remove_label",
    seed: [{ title: "Unlabel me {u}", labels: ["bug{u}"] }],
    check: async (t) => labelRemoved(t, `bug${t.u}`)
  },
  {
    command: 'unlabel "Unlabel by title {u}" bug{u}',
    intent: "remove_label",
    seed: [{ title: "Unlabel by title {u}", labels: ["bug{u}"] }],
    check: async (t) => labelRemoved(t, `bug${t.u}`)
  },
  // --- add_subtask -----------------------------------------------------------------------------
  {
    command: 'add subtask "write tests {u}" to {A}',
    intent: "add_subtask",
    seed: [{ title: "Subtasks {u}" }],
    check: async (t) => subtaskAdded(t, `write tests ${t.u}`)
  },
  {
    command: "add subtask to {A}: deploy {u}",
    intent: "add_subtask",
    seed: [{ title: "Subtasks {u}", subtasks: [{ title: "existing" }] }],
    check: async (t) => {
      await subtaskAdded(t, `deploy ${t.u}`)
      const card = await t.card(t.seeded[0].id)
      expect(card.subtasks.map((s: any) => s.title)).toEqual(["existing", `deploy ${t.u}`])
    }
  },
  {
    command: "add checklist item deploy to staging {u} to {A}",
    intent: "add_subtask",
    project: "inferred",
    seed: [{ title: "Subtasks {u}" }],
    check: async (t) => subtaskAdded(t, `deploy to staging ${t.u}`)
  },
  {
    command: "add todo write docs {u} to {A}",
    intent: "add_subtask",
    seed: [{ title: "Subtasks {u}" }],
    check: async (t) => subtaskAdded(t, `write docs ${t.u}`)
  },
  {
    command: 'add a subtask write tests {u} to "Subtask by title {u}"',
    intent: "add_subtask",
    seed: [{ title: "Subtask by title {u}" }],
    check: async (t) => subtaskAdded(t, `write tests ${t.u}`)
  },
  // --- complete_subtask ------------------------------------------------------------------------
  {
    command: "complete subtask write tests on {A}",
    intent: "complete_subtask",
    seed: [{ title: "Checklist {u}", subtasks: [{ title: "write tests" }, { title: "deploy" }] }],
    check: async (t) => subtaskState(t, "write tests", true)
  },
  {
    command: "check off tests in {A}",
    intent: "complete_subtask",
    seed: [{ title: "Checklist {u}", subtasks: [{ title: "write tests" }, { title: "deploy" }] }],
    check: async (t) => subtaskState(t, "write tests", true)
  },
  {
    command: "tick off WRITE TESTS on {A}",
    intent: "complete_subtask",
    project: "inferred",
    seed: [{ title: "Checklist {u}", subtasks: [{ title: "write tests" }, { title: "write tests again" }] }],
    check: async (t) => subtaskState(t, "write tests", true)
  },
  {
    command: "mark write tests as done on {A}",
    intent: "complete_subtask",
    seed: [{ title: "Checklist {u}", subtasks: [{ title: "deploy" }, { title: "write tests" }] }],
    check: async (t) => subtaskState(t, "write tests", true)
  },
  {
    command: 'finish subtask "deploy" on "Checklist by title {u}"',
    intent: "complete_subtask",
    seed: [{ title: "Checklist by title {u}", subtasks: [{ title: "write tests" }, { title: "deploy" }] }],
    check: async (t) => subtaskState(t, "deploy", true)
  },
  // --- reopen_subtask --------------------------------------------------------------------------
  {
    command: "reopen subtask write tests on {A}",
    intent: "reopen_subtask",
    seed: [
      {
        title: "Checklist {u}",
        subtasks: [
          { title: "write tests", completed: true },
          { title: "deploy", completed: true }
        ]
      }
    ],
    check: async (t) => subtaskState(t, "write tests", false)
  },
  {
    command: "uncheck write tests on {A}",
    intent: "reopen_subtask",
    project: "inferred",
    seed: [{ title: "Checklist {u}", subtasks: [{ title: "write tests", completed: true }] }],
    check: async (t) => subtaskState(t, "write tests", false)
  },
  {
    command: "mark subtask write tests as not done on {A}",
    intent: "reopen_subtask",
    seed: [
      {
        title: "Checklist {u}",
        subtasks: [
          { title: "deploy", completed: true },
          { title: "write tests", completed: true }
        ]
      }
    ],
    check: async (t) => subtaskState(t, "write tests", false)
  },
  // --- link_cards ------------------------------------------------------------------------------
  {
    command: "link {A} to {B}",
    intent: "link_cards",
    seed: [{ title: "Link A {u}" }, { title: "Link B {u}" }],
    check: async (t) => linked(t, t.seeded[0], t.seeded[1], "relates_to")
  },
  {
    command: "{A} blocks {B}",
    intent: "link_cards",
    seed: [{ title: "Blocker {u}" }, { title: "Blocked {u}" }],
    check: async (t) => linked(t, t.seeded[0], t.seeded[1], "blocks")
  },
  {
    command: "{A} is blocked by {B}",
    intent: "link_cards",
    project: "inferred",
    seed: [{ title: "Blocked {u}" }, { title: "Blocker {u}" }],
    check: async (t) => linked(t, t.seeded[1], t.seeded[0], "blocks")
  },
  {
    command: "mark {A} as duplicate of {B}",
    intent: "link_cards",
    seed: [{ title: "Copy {u}" }, { title: "Original {u}" }],
    check: async (t) => linked(t, t.seeded[0], t.seeded[1], "duplicates")
  },
  {
    command: "{A} duplicates {B}",
    intent: "link_cards",
    seed: [{ title: "Copy {u}" }, { title: "Original {u}" }],
    check: async (t) => linked(t, t.seeded[0], t.seeded[1], "duplicates")
  },
  {
    command: "{A} is part of {B}",
    intent: "link_cards",
    seed: [{ title: "Child {u}" }, { title: "Parent {u}" }],
    check: async (t) => linked(t, t.seeded[0], t.seeded[1], "is_part_of")
  },
  {
    command: "{B} is parent of {A}",
    intent: "link_cards",
    seed: [{ title: "Child {u}" }, { title: "Parent {u}" }],
    check: async (t) => linked(t, t.seeded[0], t.seeded[1], "is_part_of")
  },
  {
    command: "{A} relates to {B}",
    intent: "link_cards",
    seed: [{ title: "Related {u}" }, { title: "Relative {u}" }],
    check: async (t) => linked(t, t.seeded[0], t.seeded[1], "relates_to")
  },
  {
    command: "{A} depends on {B}",
    intent: "link_cards",
    seed: [{ title: "Dependent {u}" }, { title: "Dependency {u}" }],
    check: async (t) => linked(t, t.seeded[1], t.seeded[0], "blocks")
  },
  {
    command: '"Link src {u}" blocks {B}',
    intent: "link_cards",
    project: "inferred",
    seed: [{ title: "Link src {u}" }, { title: "Link dst {u}" }],
    check: async (t) => linked(t, t.seeded[0], t.seeded[1], "blocks")
  },
  {
    command: "link {A} to {B} as blocker",
    intent: "link_cards",
    seed: [{ title: "Blocker {u}" }, { title: "Blocked {u}" }],
    check: async (t) => linked(t, t.seeded[0], t.seeded[1], "blocks")
  },
  {
    command: "make {A} part of {B}",
    intent: "link_cards",
    seed: [{ title: "Part {u}" }, { title: "Whole {u}" }],
    check: async (t) => linked(t, t.seeded[0], t.seeded[1], "is_part_of")
  },
  // --- delete_card -----------------------------------------------------------------------------
  {
    command: "delete {A}",
    intent: "delete_card",
    seed: [{ title: "Doomed {u}" }],
    check: deleted
  },
  {
    command: "remove card {A}",
    intent: "delete_card",
    seed: [{ title: "Doomed {u}" }],
    check: deleted
  },
  {
    command: 'delete card "Delete me {u}"',
    intent: "delete_card",
    seed: [{ title: "Delete me {u}" }],
    check: deleted
  },
  {
    command: "trash {A}",
    intent: "delete_card",
    project: "inferred",
    seed: [{ title: "Doomed {u}", labels: ["x{u}"], subtasks: [{ title: "sub" }] }],
    check: deleted
  },
  // --- search ----------------------------------------------------------------------------------
  {
    command: "search for zebra{u}",
    intent: "search",
    seed: [{ title: "zebra{u} crossing" }, { title: "Other {u}", description: "mentions zebra{u} here" }],
    check: found
  },
  {
    command: "find cards about zebra{u}",
    intent: "search",
    project: "inferred",
    seed: [{ title: "zebra{u} crossing" }],
    check: async (t) => {
      expect(t.res.projectId).toBeNull()
      await found(t)
    }
  },
  {
    command: "which cards mention zebra{u}?",
    intent: "search",
    seed: [{ title: "The zebra{u}" }, { title: "Another zebra{u}" }],
    check: found
  },
  // --- show_card -------------------------------------------------------------------------------
  {
    command: "show {A}",
    intent: "show_card",
    seed: [{ title: "Show me {u}", labels: ["l{u}"], subtasks: [{ title: "s" }] }],
    check: shown
  },
  {
    command: "what is {A}",
    intent: "show_card",
    project: "inferred",
    seed: [{ title: "Show me {u}" }],
    check: shown
  },
  {
    command: 'show "Show me {u}"',
    intent: "show_card",
    seed: [{ title: "Show me {u}" }],
    check: shown
  },
  {
    command: "tell me about {A}",
    intent: "show_card",
    seed: [{ title: "Show me {u}" }],
    check: shown
  }
]

const token = () => `q${crypto.randomBytes(4).toString("hex")}`

describe.each(backends)("natural-language commands on %s", (backend) => {
  let server: TestServer
  let base: string
  let a: Account
  let h: Record<string, string>

  const principalOf = (account: Account): Principal => ({ userId: account.userId, via: "apiKey", workspaces: "all" })
  // the project id decoded as every front end decodes it (the contract's schema), then run
  const program = (principal: Principal, command: string, projectId: string | undefined) =>
    Effect.gen(function* () {
      const commands = yield* Commands
      const project =
        projectId === undefined ? undefined : yield* decodeInput(checkedId(ProjectId), "projectId")(projectId)
      return yield* commands.run(principal, { command, projectId: project })
    }).pipe(Effect.provide(Commands.layer))
  const exec = (command: string, projectId: string | undefined, principal: Principal = principalOf(a)) =>
    server.run(program(principal, command, projectId))
  /** Runs a command that must fail; answers the error. */
  const refuse = (command: string, projectId: string | undefined, principal: Principal = principalOf(a)) =>
    server.run(Effect.flip(program(principal, command, projectId)))

  const col = (account: Account, name: ColumnName) => account.columns.find((c) => c.name === name)!.id
  const getCard = async (id: string, headers = h) => {
    const r = await call(base, "GET", `/v1/cards/${id}`, { headers })
    expect(r.status).toBe(200)
    return r.body
  }
  const newCard = async (
    account: Account,
    title: string,
    column: ColumnName = "To Do",
    extra: Record<string, unknown> = {}
  ) => {
    const r = await call(base, "POST", "/v1/cards", {
      body: { projectId: account.projectId, columnId: col(account, column), title, ...extra },
      headers: key(account.apiKey)
    })
    expect(r.status).toBe(201)
    return r.body
  }
  const labelIds = new Map<string, string>()
  const ensureLabel = async (name: string) => {
    const known = labelIds.get(name)
    if (known !== undefined) return known
    const r = await call(base, "POST", "/v1/labels", { body: { projectId: a.projectId, name }, headers: h })
    expect(r.status).toBe(201)
    labelIds.set(name, r.body.id)
    return r.body.id as string
  }

  const seedCard = async (seed: SeedCard, fill: (s: string) => string) => {
    const card = await newCard(a, fill(seed.title), seed.column, {
      ...(seed.priority !== undefined ? { priority: seed.priority } : {}),
      ...(seed.description !== undefined ? { description: fill(seed.description) } : {})
    })
    for (const label of seed.labels ?? []) {
      const r = await call(base, "POST", `/v1/cards/${card.id}/labels`, {
        body: { labelId: await ensureLabel(fill(label)) },
        headers: h
      })
      expect(r.status).toBe(200)
    }
    for (const subtask of seed.subtasks ?? []) {
      const r = await call(base, "POST", "/v1/subtasks", {
        body: { cardId: card.id, title: subtask.title },
        headers: h
      })
      expect(r.status).toBe(201)
      if (subtask.completed === true) {
        expect((await call(base, "POST", `/v1/subtasks/${r.body.id}/toggle`, { headers: h })).status).toBe(200)
      }
    }
    return getCard(card.id)
  }

  beforeAll(async () => {
    server = await startServer(backend)
    base = server.baseUrl
    a = await bootstrap(base, "nlu")
    h = key(a.apiKey)
  })
  afterAll(() => server?.stop())

  it("has a wide table of phrasings", () => {
    expect(cases.length).toBeGreaterThanOrEqual(60)
    expect(new Set(cases.map((c) => c.intent)).size).toBe(14)
  })

  it.each(cases.map((c) => [c.command, c] as const))("%j", async (_, c) => {
    const u = token()
    const fill = (s: string) => s.replaceAll("{u}", u).replaceAll("{U}", u.toUpperCase())
    for (const label of c.labels ?? []) await ensureLabel(fill(label))
    const seeded: Array<any> = []
    for (const seed of c.seed ?? []) seeded.push(await seedCard(seed, fill))
    const command = fill(c.command)
      .replaceAll("{A}", seeded[0]?.ref ?? "{A}")
      .replaceAll("{a}", (seeded[0]?.ref ?? "{a}").toLowerCase())
      .replaceAll("{B}", seeded[1]?.ref ?? "{B}")
    const projectId = c.project === "inferred" ? undefined : a.projectId
    const res = await exec(command, projectId)
    expect(res).toMatchObject({
      command,
      intent: c.intent,
      understood: true,
      projectId: c.intent === "search" && projectId === undefined ? null : a.projectId
    })
    expect(Object.keys(res).sort()).toEqual(["actions", "command", "intent", "projectId", "result", "understood"])
    const t: T = {
      u,
      seeded,
      res,
      col: (name) => col(a, name),
      card: (id) => getCard(id),
      cardStatus: async (id) => (await call(base, "GET", `/v1/cards/${id}`, { headers: h })).status,
      board: async () => {
        const r = await call(base, "GET", `/v1/board/${a.projectId}`, { headers: h })
        expect(r.status).toBe(200)
        return r.body
      },
      links: async (id) => {
        const r = await call(base, "GET", `/v1/cards/${id}/links`, { headers: h })
        expect(r.status).toBe(200)
        return r.body
      },
      created: async () => {
        const action = res.actions.find((x) => x.type === "card.created")
        expect(action).toBeDefined()
        const card = await getCard((action as { cardId: string }).cardId)
        expect(card.projectId).toBe(a.projectId)
        expect(action).toEqual({
          type: "card.created",
          cardId: card.id,
          ref: card.ref,
          columnId: card.columnId,
          position: expect.any(Number)
        })
        expect(res.result).toEqual(card)
        return card
      }
    }
    await c.check(t)
  })

  describe("refuses, changing nothing", () => {
    const expectInvalid = (err: any, ...fragments: ReadonlyArray<string | RegExp>) => {
      expect(err._tag).toBe("InvalidInput")
      for (const f of fragments) {
        if (typeof f === "string") expect(err.message).toContain(f)
        else expect(err.message).toMatch(f)
      }
    }

    it("text it cannot parse, blank text and text over 1000 characters", async () => {
      expectInvalid(await refuse("do the thing", a.projectId), 'could not understand "do the thing"', "Try: ")
      expectInvalid(await refuse("move WEB-1", a.projectId), "name the card and the column")
      expectInvalid(await refuse("   ", a.projectId), "blank")
      expectInvalid(await refuse(`create card ${"x".repeat(1000)}`, a.projectId), "1000")
    })

    it("an ambiguous title, listing the candidates' refs", async () => {
      const u = token()
      const one = await newCard(a, `Dup title ${u} alpha`)
      const two = await newCard(a, `Dup title ${u} beta`)
      const partial = await refuse(`move "Dup title ${u}" to Done`, a.projectId)
      expectInvalid(partial, "ambiguous", one.ref, two.ref, "use the ref")
      const same1 = await newCard(a, `Same ${u}`)
      const same2 = await newCard(a, `same ${u}`)
      expectInvalid(await refuse(`move "Same ${u}" to Done`, undefined), "ambiguous", same1.ref, same2.ref)
      for (const card of [one, two, same1, same2]) expect(await getCard(card.id)).toEqual(card)
    })

    it("a title nothing matches", async () => {
      const u = token()
      expectInvalid(
        await refuse(`move "nothing like ${u}" to Done`, a.projectId),
        `no card matches "nothing like ${u}"`
      )
    })

    it("an unknown column, listing the project's columns", async () => {
      const card = await newCard(a, `Stay ${token()}`)
      const err = await refuse(`move ${card.ref} to Review`, a.projectId)
      expectInvalid(err, '"Review"', '"To Do"', '"In Progress"', '"Done"')
      expectInvalid(await refuse(`create card Somewhere ${token()} in Backlog`, a.projectId), '"Backlog"', '"To Do"')
      expect(await getCard(card.id)).toEqual(card)
    })

    it("an unknown card ref", async () => {
      expectInvalid(await refuse("move WEB-99999 to Done", a.projectId), "no card WEB-99999")
      expectInvalid(await refuse("show WEB-99999", undefined), "no card WEB-99999")
    })

    it("a label that is not on the card, a subtask the card does not have, a card linked to itself", async () => {
      const u = token()
      const card = await seedCard(
        { title: `Plain ${u}`, labels: [`real${u}`], subtasks: [{ title: "write tests" }] },
        (s) => s
      )
      expectInvalid(
        await refuse(`remove label nope${u} from ${card.ref}`, a.projectId),
        `no label "nope${u}"`,
        `"real${u}"`
      )
      expectInvalid(
        await refuse(`complete subtask deploy on ${card.ref}`, a.projectId),
        'no subtask matching "deploy"',
        '"write tests"'
      )
      expectInvalid(await refuse(`link "Plain ${u}" to ${card.ref}`, a.projectId), "itself")
      expect(await getCard(card.id)).toEqual(card)
      expect((await call(base, "GET", `/v1/cards/${card.id}/links`, { headers: h })).body).toEqual([])
    })

    it("a malformed or unknown projectId", async () => {
      expectInvalid(await refuse("create card X", "nope"), "projectId")
      expectInvalid(
        await refuse("create card X", "00000000-0000-4000-8000-000000000000"),
        "project 00000000-0000-4000-8000-000000000000 not found"
      )
    })

    it("without projectId: a new card or a title when two projects are visible; a ref in two projects", async () => {
      const c = await bootstrap(base, "nlu-two")
      const second = await call(base, "POST", "/v1/projects", {
        body: { workspaceId: c.workspaceId, name: "Webshop", template: "kanban" },
        headers: key(c.apiKey)
      })
      expect(second.status).toBe(201)
      const inWebsite = await newCard(c, "Site card")
      const shopCard = await call(base, "POST", "/v1/cards", {
        body: { projectId: second.body.project.id, columnId: second.body.columns[0].id, title: "Shop card" },
        headers: key(c.apiKey)
      })
      expect(shopCard.body.ref).toBe(inWebsite.ref)
      const pc = principalOf(c)
      expectInvalid(await refuse("create card Lost", undefined, pc), "projectId", '"Website"', '"Webshop"')
      expectInvalid(await refuse('move "Site card" to Done', undefined, pc), "projectId", '"Website"', '"Webshop"')
      expectInvalid(
        await refuse(`move ${inWebsite.ref} to Done`, undefined, pc),
        "ambiguous",
        '"Website"',
        '"Webshop"',
        "projectId"
      )
      const board = await call(base, "GET", `/v1/board/${c.projectId}`, { headers: key(c.apiKey) })
      expect(board.body.cards.map((x: any) => x.title)).toEqual(["Site card"])
      // with projectId the same ref is the one of that project
      const moved = await exec(`move ${inWebsite.ref} to Done`, second.body.project.id, pc)
      expect(moved.projectId).toBe(second.body.project.id)
      expect((await getCard(shopCard.body.id, key(c.apiKey))).columnId).toBe(second.body.columns[2].id)
      expect(await getCard(inWebsite.id, key(c.apiKey))).toEqual(inWebsite)
    })

    it("another user's card by ref is no card, and their board is never touched", async () => {
      const b = await bootstrap(base, "nlu-other", "Mobile")
      const theirs = await newCard(b, "Bob's card")
      expect(theirs.ref).toBe("MOB-1")
      expectInvalid(await refuse(`move ${theirs.ref} to Done`, undefined), "no card MOB-1")
      expectInvalid(await refuse(`move ${theirs.ref} to Done`, a.projectId), "no card MOB-1")
      expectInvalid(await refuse(`delete ${theirs.ref}`, undefined), "no card MOB-1")
      expectInvalid(await refuse(`${theirs.ref} blocks WEB-1`, undefined), "no card MOB-1")
      expectInvalid(await refuse("create card Intruder", b.projectId), `project ${b.projectId} not found`)
      expectInvalid(await refuse('move "Bob\'s card" to Done', b.projectId), "not found")
      const search = await exec("search for Bob's card", undefined)
      expect((search.result as any).cards).toEqual([])
      expect(await getCard(theirs.id, key(b.apiKey))).toEqual(theirs)
      const board = await call(base, "GET", `/v1/board/${b.projectId}`, { headers: key(b.apiKey) })
      expect(board.body.cards).toEqual([theirs])
      expect(board.body.labels).toEqual([])
    })

    it("an OAuth grant without the project's workspace: WorkspaceNotGranted, or nothing visible", async () => {
      const ws = await call(base, "POST", "/v1/workspaces", { body: { name: "Elsewhere" }, headers: h })
      expect(ws.status).toBe(201)
      const oauth: Principal = {
        userId: a.userId,
        via: "oauth",
        workspaces: new Set([ws.body.workspace?.id ?? ws.body.id])
      }
      const card = await newCard(a, `Granted elsewhere ${token()}`)
      const err = await refuse(`move ${card.ref} to Done`, a.projectId, oauth)
      expect(err._tag).toBe("WorkspaceNotGranted")
      expect((await refuse("create card Nope", a.projectId, oauth))._tag).toBe("WorkspaceNotGranted")
      expectInvalid(await refuse(`move ${card.ref} to Done`, undefined, oauth), `no card ${card.ref}`)
      expectInvalid(await refuse("create card Nope", undefined, oauth), "no project")
      const search = await exec(`search for ${card.title}`, undefined, oauth)
      expect((search.result as any).cards).toEqual([])
      expect(await getCard(card.id)).toEqual(card)
    })
  })
})
