/**
 * The board as the page shows it, kept live: reads the project's board (with its members and
 * live agent sessions), follows the project's event stream from the board's own cursor
 * (lib/liveEvents.ts: nothing falls between the snapshot and the stream, or is lost while the
 * server restarts) and applies every event through the one reducer (lib/boardState.ts). An
 * event about a card also updates the card panel's copy of it (lib/queryCache.ts), so an open
 * panel follows the board without reading it again.
 */
import { type RefObject, useCallback, useReducer, useRef, useState } from "react"
import { ApiError, api } from "../api.ts"
import { type BoardAction, type BoardState, actionOfEvent, boardReducer, cardOfEvent } from "../lib/boardState.ts"
import { type LiveStatus, type StreamEvent, useProjectEvents } from "../lib/liveEvents.ts"
import { cardKey, invalidate, setQueryData } from "../lib/queryCache.ts"
import type { Member, Workspace } from "../types.ts"

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e))

/** A board the server no longer shows this person (403/404): deleted, or they left or were removed. */
export const NO_ACCESS =
  "You do not have access to this board: it was deleted, or you are no longer a member of its workspace. Ask one of the workspace's admins for an invitation."

/** Whether a cached answer is the card `cardId` (the panel may have asked by its ref). */
const isCard = (cardId: string) => (key: string, data: unknown) =>
  key === cardKey(cardId) || (key.startsWith("/v1/cards/") && (data as { id?: unknown } | undefined)?.id === cardId)

export interface LiveBoard {
  /** null until the board is first read. */
  readonly state: BoardState | null
  /** The newest state, for handlers that must not be re-created on every change. */
  readonly stateRef: RefObject<BoardState | null>
  readonly dispatch: (action: BoardAction) => void
  readonly live: LiveStatus
  /** Why the board cannot be shown (and whether it is being tried again). */
  readonly loadError: string | null
  readonly members: ReadonlyArray<Member>
  /** The caller's role in the project's workspace (read with the board); null until known. */
  readonly role: Workspace["role"] | null
}

export const useLiveBoard = (projectId: string, say: (text: string) => void): LiveBoard => {
  const [state, dispatch] = useReducer(boardReducer, null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [members, setMembers] = useState<ReadonlyArray<Member>>([])
  const [role, setRole] = useState<Workspace["role"] | null>(null)
  const stateRef = useRef<BoardState | null>(state)
  stateRef.current = state

  const onEvent = useCallback((event: StreamEvent) => {
    const action = actionOfEvent(event.type, event.data.object)
    if (action !== undefined) dispatch(action)
    const about = cardOfEvent(event.type, event.data.object)
    if (about === undefined) return
    // the event carries the card whole: the panel shows it as it is; else it reads it again
    if (about.card !== undefined) setQueryData(isCard(about.cardId), about.card)
    else invalidate(isCard(about.cardId))
  }, [])

  /**
   * Reads the board (first, and again when a stream was refused) and answers its snapshot's
   * event cursor, where the stream starts; undefined when it could not be read (tried again),
   * null when it never will be (the project is gone or not the person's).
   */
  const load = useCallback(async (): Promise<string | undefined | null> => {
    let board: Awaited<ReturnType<typeof readBoard>>
    try {
      board = await readBoard(projectId)
    } catch (e) {
      // not a project's address, gone or not yours: nothing to retry; anything else (the server
      // restarting, the network) is tried again
      const final = e instanceof ApiError && (e.status === 400 || e.status === 403 || e.status === 404)
      if (final) setLoadError(e.status === 400 ? errorText(e) : NO_ACCESS)
      else if (stateRef.current === null) setLoadError(`${errorText(e)} Trying again…`)
      else say(`Could not read the board again: ${errorText(e)} Trying again…`)
      return final ? null : undefined
    }
    setLoadError(null)
    dispatch({ type: "load", board })
    try {
      const [workspaces, memberList, ...sessionLists] = await Promise.all([
        api.GET("/v1/workspaces"),
        api.GET("/v1/workspaces/{id}/members", { params: { path: { id: board.project.workspaceId } } }),
        ...(["active", "awaitingInput", "error"] as const).map((status) =>
          api.GET("/v1/projects/{projectId}/agent-sessions", { params: { path: { projectId }, query: { status } } })
        )
      ])
      setRole(workspaces.find((w) => w.id === board.project.workspaceId)?.role ?? null)
      setMembers(memberList)
      dispatch({ type: "sessions", sessions: sessionLists.flat() })
    } catch (e) {
      say(`Could not load the whole board: ${errorText(e)}`)
    }
    return board.eventCursor
  }, [projectId, say])

  const live = useProjectEvents(projectId, onEvent, load)
  return { state, stateRef, dispatch, live, loadError, members, role }
}

const readBoard = (projectId: string) => api.GET("/v1/board/{projectId}", { params: { path: { projectId } } })
