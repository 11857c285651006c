import { describe, expect, it } from "vitest"
import { EXAMPLES, MAX_COMMAND_LENGTH, parseCommand } from "./parseCommand.ts"
import type { Intent } from "./parseCommand.ts"

const W4 = { ref: "WEB-4" }
const W5 = { ref: "WEB-5" }

const create = (title: string, extra: Partial<Extract<Intent, { type: "create_card" }>> = {}): Intent => ({
  type: "create_card",
  title,
  labels: [],
  ...extra
})

const cases: ReadonlyArray<readonly [string, Intent]> = [
  // create_card
  [
    "create a card Fix login in To Do with priority high labelled bug, backend",
    create("Fix login", { column: "To Do", priority: "high", labels: ["bug", "backend"] })
  ],
  ['add card "Write docs" to Done', create("Write docs", { column: "Done" })],
  ["new task: refactor search, urgent", create("refactor search", { priority: "urgent" })],
  ["create card Fix login", create("Fix login")],
  ["Create a new card called Fix login", create("Fix login")],
  ['create card "Add to cart" in Backlog', create("Add to cart", { column: "Backlog" })],
  ["add card Write docs to Done", create("Write docs", { column: "Done" })],
  ["create card Log in page", create("Log in page")],
  ["create card Fix bug in parser in To Do", create("Fix bug in parser", { column: "To Do" })],
  [
    "create card Fix login priority: urgent tags: auth, ui",
    create("Fix login", { priority: "urgent", labels: ["auth", "ui"] })
  ],
  ["create card Fix login with high priority in Doing", create("Fix login", { column: "Doing", priority: "high" })],
  ["new card Fix login in the Backlog column", create("Fix login", { column: "Backlog" })],
  ["create a high priority card Fix login", create("Fix login", { priority: "high" })],
  ["create card Fix login tagged with bug and security", create("Fix login", { labels: ["bug", "security"] })],
  ["create Fix login in To Do", create("Fix login", { column: "To Do" })],
  ['add "Write docs" to Done', create("Write docs", { column: "Done" })],
  ["add card “Write docs” to Done", create("Write docs", { column: "Done" })],
  ["create card Fix login labelled bug in todo", create("Fix login", { column: "todo", labels: ["bug"] })],
  ["new ticket - Crash on save, critical", create("Crash on save", { priority: "urgent" })],
  // move_card
  ["move WEB-12 to Done", { type: "move_card", card: { ref: "WEB-12" }, column: "Done" }],
  ['move "Fix login" into In Progress', { type: "move_card", card: { title: "Fix login" }, column: "In Progress" }],
  ["put WEB-3 in done at top", { type: "move_card", card: { ref: "WEB-3" }, column: "done", position: 0 }],
  ["move WEB-3 to in progress", { type: "move_card", card: { ref: "WEB-3" }, column: "in progress" }],
  ["move Fix login to In Progress", { type: "move_card", card: { title: "Fix login" }, column: "In Progress" }],
  ["move WEB-3 over to Review", { type: "move_card", card: { ref: "WEB-3" }, column: "Review" }],
  ["send WEB-3 back to Backlog", { type: "move_card", card: { ref: "WEB-3" }, column: "Backlog" }],
  ["drag WEB-3 to the QA column", { type: "move_card", card: { ref: "WEB-3" }, column: "QA" }],
  ["move WEB-3 to the top of Done", { type: "move_card", card: { ref: "WEB-3" }, column: "Done", position: 0 }],
  ["put WEB-3 in Done at position 3", { type: "move_card", card: { ref: "WEB-3" }, column: "Done", position: 2 }],
  ["move WEB-3 to Done as the second card", { type: "move_card", card: { ref: "WEB-3" }, column: "Done", position: 1 }],
  ["move WEB-3 to Done at the bottom", { type: "move_card", card: { ref: "WEB-3" }, column: "Done" }],
  ["move WEB-3 to Ready to Ship", { type: "move_card", card: { ref: "WEB-3" }, column: "Ready to Ship" }],
  ["mark WEB-4 as done", { type: "move_card", card: W4, column: "Done" }],
  ["Please move web-12 to done!", { type: "move_card", card: { ref: "WEB-12" }, column: "done" }],
  ["  move   WEB-12   to   Done  ", { type: "move_card", card: { ref: "WEB-12" }, column: "Done" }],
  ["move “Fix login” to ‘In Progress’", { type: "move_card", card: { title: "Fix login" }, column: "In Progress" }],
  ["Could you please move WEB-12 to Done, thanks", { type: "move_card", card: { ref: "WEB-12" }, column: "Done" }],
  ["OK, move card WEB-12 to Done.", { type: "move_card", card: { ref: "WEB-12" }, column: "Done" }],
  // rename_card
  ["rename WEB-4 to Better title", { type: "rename_card", card: W4, title: "Better title" }],
  [
    'rename "Fix login" to "Fix login loop"',
    { type: "rename_card", card: { title: "Fix login" }, title: "Fix login loop" }
  ],
  ["retitle WEB-4: Better title", { type: "rename_card", card: W4, title: "Better title" }],
  ["change the title of WEB-4 to Go to market", { type: "rename_card", card: W4, title: "Go to market" }],
  ["set WEB-4's title to Better", { type: "rename_card", card: W4, title: "Better" }],
  // set_priority
  ["set priority of WEB-4 to urgent", { type: "set_priority", card: W4, priority: "urgent" }],
  ["make WEB-4 high priority", { type: "set_priority", card: W4, priority: "high" }],
  ["mark WEB-4 as urgent", { type: "set_priority", card: W4, priority: "urgent" }],
  ["raise the priority of WEB-4 to high", { type: "set_priority", card: W4, priority: "high" }],
  ["prioritize WEB-4 as low", { type: "set_priority", card: W4, priority: "low" }],
  ["set priority high on WEB-4", { type: "set_priority", card: W4, priority: "high" }],
  ["change WEB-4 priority to critical", { type: "set_priority", card: W4, priority: "urgent" }],
  ["set WEB-4's priority to normal", { type: "set_priority", card: W4, priority: "medium" }],
  // set_description
  [
    "set description of WEB-4 to Crashes on save.",
    { type: "set_description", card: W4, description: "Crashes on save." }
  ],
  [
    "describe WEB-4 as The login page loops.",
    { type: "set_description", card: W4, description: "The login page loops." }
  ],
  [
    'set the description of "Fix login" to "Users loop"',
    { type: "set_description", card: { title: "Fix login" }, description: "Users loop" }
  ],
  [
    'describe WEB-4: Steps:\n1. open "Login"\n2. loop',
    { type: "set_description", card: W4, description: 'Steps:\n1. open "Login"\n2. loop' }
  ],
  [
    "update WEB-4 description to Move to v2 of the API",
    { type: "set_description", card: W4, description: "Move to v2 of the API" }
  ],
  ["clear the description of WEB-4", { type: "set_description", card: W4, description: "" }],
  // add_label
  ["label WEB-4 as bug", { type: "add_label", card: W4, label: "bug" }],
  ["add label bug to WEB-4", { type: "add_label", card: W4, label: "bug" }],
  ["tag WEB-4 with bug", { type: "add_label", card: W4, label: "bug" }],
  ["add the bug label to WEB-4", { type: "add_label", card: W4, label: "bug" }],
  ["apply label frontend to WEB-4", { type: "add_label", card: W4, label: "frontend" }],
  ["label WEB-4 bug", { type: "add_label", card: W4, label: "bug" }],
  ['tag "Fix login" as ui', { type: "add_label", card: { title: "Fix login" }, label: "ui" }],
  ['label WEB-4 with "needs review"', { type: "add_label", card: W4, label: "needs review" }],
  // remove_label
  ["remove label bug from WEB-4", { type: "remove_label", card: W4, label: "bug" }],
  ["untag WEB-4 bug", { type: "remove_label", card: W4, label: "bug" }],
  ["remove the bug label from WEB-4", { type: "remove_label", card: W4, label: "bug" }],
  ["take label bug off WEB-4", { type: "remove_label", card: W4, label: "bug" }],
  ["unlabel WEB-4 bug", { type: "remove_label", card: W4, label: "bug" }],
  ["untag bug from WEB-4", { type: "remove_label", card: W4, label: "bug" }],
  // add_subtask
  ['add subtask "write tests" to WEB-4', { type: "add_subtask", card: W4, title: "write tests" }],
  ["add a subtask write tests to WEB-4", { type: "add_subtask", card: W4, title: "write tests" }],
  ["add subtask to WEB-4: write tests", { type: "add_subtask", card: W4, title: "write tests" }],
  ["add checklist item deploy to staging to WEB-4", { type: "add_subtask", card: W4, title: "deploy to staging" }],
  ["add todo write docs to WEB-4", { type: "add_subtask", card: W4, title: "write docs" }],
  ["add task write tests to WEB-4", { type: "add_subtask", card: W4, title: "write tests" }],
  // complete_subtask
  ["complete subtask write tests on WEB-4", { type: "complete_subtask", card: W4, subtask: "write tests" }],
  ["check off write tests in WEB-4", { type: "complete_subtask", card: W4, subtask: "write tests" }],
  ['finish subtask "write tests" on WEB-4', { type: "complete_subtask", card: W4, subtask: "write tests" }],
  ["tick off write tests on WEB-4", { type: "complete_subtask", card: W4, subtask: "write tests" }],
  ["mark subtask write tests on WEB-4 as done", { type: "complete_subtask", card: W4, subtask: "write tests" }],
  ["mark write tests as done on WEB-4", { type: "complete_subtask", card: W4, subtask: "write tests" }],
  // reopen_subtask
  ["reopen subtask write tests on WEB-4", { type: "reopen_subtask", card: W4, subtask: "write tests" }],
  ["uncheck write tests on WEB-4", { type: "reopen_subtask", card: W4, subtask: "write tests" }],
  ["untick write tests in WEB-4", { type: "reopen_subtask", card: W4, subtask: "write tests" }],
  ["mark subtask write tests as not done on WEB-4", { type: "reopen_subtask", card: W4, subtask: "write tests" }],
  // link_cards
  ["link WEB-4 to WEB-5", { type: "link_cards", card: W4, target: W5, linkType: "relates_to" }],
  ["WEB-4 blocks WEB-5", { type: "link_cards", card: W4, target: W5, linkType: "blocks" }],
  ["WEB-4 is blocked by WEB-5", { type: "link_cards", card: W5, target: W4, linkType: "blocks" }],
  ["mark WEB-4 as duplicate of WEB-5", { type: "link_cards", card: W4, target: W5, linkType: "duplicates" }],
  ["WEB-4 duplicates WEB-5", { type: "link_cards", card: W4, target: W5, linkType: "duplicates" }],
  ["WEB-4 is part of WEB-5", { type: "link_cards", card: W4, target: W5, linkType: "is_part_of" }],
  ["WEB-4 relates to WEB-5", { type: "link_cards", card: W4, target: W5, linkType: "relates_to" }],
  ["connect WEB-4 with WEB-5", { type: "link_cards", card: W4, target: W5, linkType: "relates_to" }],
  ["link WEB-4 and WEB-5", { type: "link_cards", card: W4, target: W5, linkType: "relates_to" }],
  ["link WEB-4 to WEB-5 as blocker", { type: "link_cards", card: W4, target: W5, linkType: "blocks" }],
  ["WEB-4 is a duplicate of WEB-5", { type: "link_cards", card: W4, target: W5, linkType: "duplicates" }],
  ["WEB-4 is duplicated by WEB-5", { type: "link_cards", card: W5, target: W4, linkType: "duplicates" }],
  ["WEB-4 belongs to WEB-5", { type: "link_cards", card: W4, target: W5, linkType: "is_part_of" }],
  ["WEB-5 is parent of WEB-4", { type: "link_cards", card: W4, target: W5, linkType: "is_part_of" }],
  ["WEB-4 depends on WEB-5", { type: "link_cards", card: W5, target: W4, linkType: "blocks" }],
  ['"Fix login" blocks web-5', { type: "link_cards", card: { title: "Fix login" }, target: W5, linkType: "blocks" }],
  ["mark WEB-4 as blocked by WEB-5", { type: "link_cards", card: W5, target: W4, linkType: "blocks" }],
  ["make WEB-4 part of WEB-5", { type: "link_cards", card: W4, target: W5, linkType: "is_part_of" }],
  ["make WEB-4 depend on WEB-5", { type: "link_cards", card: W5, target: W4, linkType: "blocks" }],
  // archive_card, restore_card: "archive" archives, "delete" stays delete
  ["archive WEB-4", { type: "archive_card", card: W4 }],
  ["Archive the card WEB-4", { type: "archive_card", card: W4 }],
  ['archive card "Fix login"', { type: "archive_card", card: { title: "Fix login" } }],
  ["restore WEB-4", { type: "restore_card", card: W4 }],
  ["unarchive WEB-4", { type: "restore_card", card: W4 }],
  // delete_card
  ["delete WEB-4", { type: "delete_card", card: W4 }],
  ["remove card WEB-4", { type: "delete_card", card: W4 }],
  ["trash WEB-4", { type: "delete_card", card: W4 }],
  ["remove WEB-4", { type: "delete_card", card: W4 }],
  ["delete the card Fix login", { type: "delete_card", card: { title: "Fix login" } }],
  ['delete card "Fix login"', { type: "delete_card", card: { title: "Fix login" } }],
  // search
  ["search for login bug", { type: "search", query: "login bug" }],
  ["find cards about login", { type: "search", query: "login" }],
  ["look for cards mentioning oauth", { type: "search", query: "oauth" }],
  ["which cards mention login?", { type: "search", query: "login" }],
  ['search "login bug"', { type: "search", query: "login bug" }],
  ["show me cards about login", { type: "search", query: "login" }],
  ["search for “login bug”", { type: "search", query: "login bug" }],
  // show_card
  ["show WEB-4", { type: "show_card", card: W4 }],
  ["what is WEB-4", { type: "show_card", card: W4 }],
  ["open WEB-4", { type: "show_card", card: W4 }],
  ["what's WEB-4?", { type: "show_card", card: W4 }],
  ["view card WEB-4", { type: "show_card", card: W4 }],
  ["tell me about WEB-4", { type: "show_card", card: W4 }],
  ['show "Fix login"', { type: "show_card", card: { title: "Fix login" } }],
  ["describe WEB-4", { type: "show_card", card: W4 }],
  ["find WEB-4", { type: "show_card", card: W4 }],
  ["what is the status of WEB-4", { type: "show_card", card: W4 }],
  ["hey, can you show WEB-4?", { type: "show_card", card: W4 }],
  // more variation
  ["move WEB-4 to Done at the top of the column", { type: "move_card", card: W4, column: "Done", position: 0 }],
  ["complete the subtask called write tests on WEB-4", { type: "complete_subtask", card: W4, subtask: "write tests" }],
  ["create card 'Don't crash' in Done", create("Don't crash", { column: "Done" })],
  [
    "add a new card named Fix login to Backlog with priority low",
    create("Fix login", { column: "Backlog", priority: "low" })
  ],
  ["WEB-4 is waiting for WEB-5", { type: "link_cards", card: W5, target: W4, linkType: "blocks" }],
  ["move #WEB-4 to Done", { type: "move_card", card: W4, column: "Done" }],
  ["MOVE WEB-4 TO DONE", { type: "move_card", card: W4, column: "DONE" }]
]

describe("parseCommand understands", () => {
  it.each(cases)("%j", (command, intent) => {
    expect(parseCommand(command)).toEqual({ ok: true, intent })
  })

  it("has a wide table", () => {
    expect(cases.length).toBeGreaterThanOrEqual(70)
  })
})

const failures: ReadonlyArray<readonly [string, string]> = [
  ["", "empty"],
  ["   \n\t ", "empty"],
  ["please", "empty"],
  ["x".repeat(MAX_COMMAND_LENGTH + 1), "limit is 1000"],
  ["do the thing", 'could not understand "do the thing"'],
  ["move WEB-4", "name the card and the column"],
  ["move Fix login", "name the card and the column"],
  ["create card", "needs a title"],
  ["set priority of WEB-4 to super", '"super" is not a priority'],
  ["link WEB-4 to WEB-4", "cannot be linked to itself"],
  ["link WEB-4", "name both"],
  ["add label to WEB-4", "Name the label"],
  ["tag WEB-4", "name the card and one label"],
  ["label WEB-4 with bug, ui", "one label at a time"],
  ["complete WEB-4", "Name the subtask as well as the card"],
  ["add subtask write tests", "name the subtask and the card"],
  ["rename WEB-4", "name the card and the new title"],
  ["delete WEB-4 and WEB-5", "one card at a time"],
  ["delete subtask write tests from WEB-4", "cannot be deleted"],
  ["search for", "what to search for"],
  ["set description of WEB-4 to", "name the card and the text"],
  ["show", "show a card"],
  ["WEB-4 blocks", "link cards"],
  ['create card "X" in WEB-4 with priority high', "looks like a card, not a column"],
  ["create card Fix login with priority high and stuff", '"and stuff"'],
  ["create card Investigate high priority bugs", "quote the title"],
  ["show cards", "which cards to look for"],
  ["remove Fix login", "name it by ref or quoted title"],
  ["Fix login blocks Deploy", "quote titles"]
]

describe("parseCommand refuses", () => {
  it.each(failures)("%j", (command, fragment) => {
    const result = parseCommand(command)
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.toLowerCase()).toContain(fragment.toLowerCase())
    expect(result.error).toMatch(/Try: \S/)
  })

  it("gives examples that parse", () => {
    for (const example of Object.values(EXAMPLES)) expect(parseCommand(example).ok, example).toBe(true)
  })

  it("names the intent each example stands for", () => {
    for (const [type, example] of Object.entries(EXAMPLES)) {
      const result = parseCommand(example)
      expect(result.ok && result.intent.type, example).toBe(type)
    }
  })
})
