import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { examples } from "../../support/format.ts"
import { registerCardArchive } from "./archive.ts"
import { registerCardAssign } from "./assign.ts"
import { registerCardCreate } from "./create.ts"
import { registerCardDelete } from "./delete.ts"
import { registerCardEdit } from "./edit.ts"
import { registerCardHistory } from "./history.ts"
import { registerCardMove } from "./move.ts"
import { registerCardShow } from "./show.ts"

export const registerCard = (program: Command, app: App) => {
  const card = program
    .command("card")
    .description(
      "create, show, edit, move, archive, restore and delete cards, and see their history; name a card by its ref (WEB-12), id or title"
    )
    .addHelpText(
      "after",
      examples(
        'board card create "Fix login" --priority high',
        "board card show WEB-1",
        'board card move WEB-1 "In Progress"',
        'board card edit WEB-1 --title "Fix the login"',
        "board card archive WEB-1",
        "board card restore WEB-1",
        "board card delete WEB-1 --yes",
        "board card assign WEB-1 @me",
        "board card history WEB-1"
      )
    )
  registerCardCreate(card, app)
  registerCardShow(card, app)
  registerCardEdit(card, app)
  registerCardMove(card, app)
  registerCardArchive(card, app)
  registerCardDelete(card, app)
  registerCardAssign(card, app)
  registerCardHistory(card, app)
  return card
}
