/** The API's shapes as the typed client decodes them, named once for the commands. */
import type { Effect } from "effect"
import type { HttpClientResponse } from "effect/http"
import type { BoardClient } from "./client.ts"

// a client method is generic in its response mode; ReturnType sees every mode at once
type Ok<F extends (...args: never) => unknown> = Exclude<
  Effect.Success<ReturnType<F>>,
  HttpClientResponse.HttpClientResponse | readonly [unknown, HttpClientResponse.HttpClientResponse]
>

export type Workspace = Ok<BoardClient["workspaces"]["list"]>[number]
export type Project = Ok<BoardClient["workspaces"]["projects"]>[number]
export type Member = Ok<BoardClient["members"]["list"]>[number]
export type BoardView = Ok<BoardClient["board"]["board"]>
export type Column = BoardView["columns"][number]
export type Card = Ok<BoardClient["board"]["getCard"]>
export type Label = BoardView["labels"][number]
export type Subtask = Card["subtasks"][number]
export type CardLink = Ok<BoardClient["board"]["listCardLinks"]>[number]
export type PullRequest = Ok<BoardClient["forge"]["pullRequests"]>[number]
export type ProjectLink = Ok<BoardClient["links"]["review"]>["link"]
export type IntakeToken = Ok<BoardClient["intake"]["listTokens"]>[number]
export type CommandResult = Ok<BoardClient["commands"]["run"]>
export type Comment = Ok<BoardClient["board"]["createComment"]>

/** Every failure a client call can have (the contract's errors, transport, schema). */
export type ApiError =
  | Effect.Error<ReturnType<BoardClient["board"]["board"]>>
  | Effect.Error<ReturnType<BoardClient["workspaces"]["createProject"]>>
  | Effect.Error<ReturnType<BoardClient["board"]["createLabel"]>>
