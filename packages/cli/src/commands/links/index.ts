import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { examples } from "../../support/format.ts"
import { registerLinksAdd } from "./add.ts"
import { registerLinksDelete } from "./delete.ts"
import { registerLinksEvaluate } from "./evaluate.ts"
import { registerLinksList } from "./list.ts"
import { registerLinksReview } from "./review.ts"

export const registerLinks = (program: Command, app: App) => {
  const links = program
    .command("links")
    .description("a project's web links, rated for relevance to its board (for links between cards see `board link`)")
    .addHelpText(
      "after",
      examples(
        'board links add https://docs.example.com/auth --title "Auth guide"',
        "board links list --relevance high",
        "board links review https://docs.example.com/auth --relevance low",
        "board links evaluate https://docs.example.com/auth",
        "board links delete https://docs.example.com/auth"
      )
    )
  registerLinksAdd(links, app)
  registerLinksList(links, app)
  registerLinksReview(links, app)
  registerLinksEvaluate(links, app)
  registerLinksDelete(links, app)
  return links
}
