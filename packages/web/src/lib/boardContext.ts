/**
 * What the board page shares with the card panel it opens: the live board (columns name a card's
 * column and its history's moves, labels are offered to attach, the board's copy of a card
 * shows at once), the workspace's members, and the reducer's dispatch (a label the panel
 * creates is on the board at once). The panel reads the card itself, never the whole board.
 */
import { createContext, useContext } from "react"
import type { Member } from "../types.ts"
import type { BoardAction, BoardState } from "./boardState.ts"

export interface BoardView {
  readonly state: BoardState
  readonly members: ReadonlyArray<Member>
  readonly dispatch: (action: BoardAction) => void
}

export const BoardContext = createContext<BoardView | null>(null)

export const useBoardView = (): BoardView | null => useContext(BoardContext)
