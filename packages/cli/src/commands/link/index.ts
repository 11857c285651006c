import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { examples } from "../../support/format.ts"
import { registerLinkAdd } from "./add.ts"
import { registerLinkList } from "./list.ts"
import { registerLinkDelete } from "./delete.ts"

export const registerLink = (program: Command, app: App) => {
  const link = program
    .command("link")
    .description("links between cards: relates_to, blocks, duplicates, is_part_of (for web links see `board web-link`)")
    .addHelpText(
      "after",
      examples("board link add WEB-4 WEB-5 --type blocks", "board link list WEB-4", "board link delete WEB-4 WEB-5")
    )
  registerLinkAdd(link, app)
  registerLinkList(link, app)
  registerLinkDelete(link, app)
  return link
}
