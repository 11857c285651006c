import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { examples } from "../../support/format.ts"
import { registerLinkAdd } from "./add.ts"
import { registerLinkList } from "./list.ts"
import { registerLinkRemove } from "./remove.ts"

export const registerLink = (program: Command, app: App) => {
  const link = program
    .command("link")
    .description("links between cards: relates_to, blocks, duplicates, is_part_of (for web links see `board links`)")
    .addHelpText(
      "after",
      examples("board link add WEB-4 WEB-5 --type blocks", "board link list WEB-4", "board link remove WEB-4 WEB-5")
    )
  registerLinkAdd(link, app)
  registerLinkList(link, app)
  registerLinkRemove(link, app)
  return link
}
