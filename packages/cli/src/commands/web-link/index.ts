import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { examples } from "../../support/format.ts"
import { registerWebLinkAdd } from "./add.ts"
import { registerWebLinkDelete } from "./delete.ts"
import { registerWebLinkEvaluate } from "./evaluate.ts"
import { registerWebLinkList } from "./list.ts"
import { registerWebLinkReview } from "./review.ts"

export const registerWebLink = (program: Command, app: App) => {
  const links = program
    .command("web-link")
    // the name before issue 16 (next to `link`, it read as the same thing)
    .alias("links")
    .description("a project's web links, rated for relevance to its board (for links between cards see `board link`)")
    .addHelpText(
      "after",
      examples(
        'board web-link add https://docs.example.com/auth --title "Auth guide"',
        "board web-link list --relevance high",
        "board web-link review https://docs.example.com/auth --relevance low",
        "board web-link evaluate https://docs.example.com/auth",
        "board web-link delete https://docs.example.com/auth"
      )
    )
  registerWebLinkAdd(links, app)
  registerWebLinkList(links, app)
  registerWebLinkReview(links, app)
  registerWebLinkEvaluate(links, app)
  registerWebLinkDelete(links, app)
  return links
}
