/**
 * After the command: the branch pushed, the pull request opened (`--open-pr`, with the forge's
 * own CLI), the card moved on and a `response` that says what was shipped.
 */
import { execFile } from "node:child_process"
import type { RunnerContext } from "./context.ts"
import { originUrl, push } from "./git.ts"

export interface Shipped {
  readonly branch: string
  readonly pullRequest: string | undefined
}

const run = (cwd: string, cmd: string, args: ReadonlyArray<string>) =>
  new Promise<string>((resolve, reject) =>
    execFile(cmd, [...args], { cwd }, (error, stdout, stderr) =>
      error !== null ? reject(new Error(`${cmd}: ${String(stderr).trim() || error.message}`)) : resolve(String(stdout))
    )
  )

/** `gh` for GitHub, `glab` for GitLab, else `tea` (Gitea, Forgejo): chosen by origin's URL. */
export const forgeCli = (origin: string): "gh" | "glab" | "tea" =>
  /github/i.test(origin) ? "gh" : /gitlab/i.test(origin) ? "glab" : "tea"

const openPullRequest = async (
  ctx: RunnerContext,
  dir: string,
  card: { id: string; ref: string; title: string },
  branch: string,
  base: string
): Promise<string | undefined> => {
  const link = `${ctx.config.webOrigin}/p/${ctx.config.projectId}?card=${card.id}`
  const title = `${card.ref}: ${card.title}`
  const body = `Closes ${card.ref}\n\nCard: ${link}\n\nOpened by \`board agent run\`.`
  const cli = forgeCli(await originUrl(ctx.config.repo))
  // arguments, never a shell line: the title cannot become a command; `--x=value` keeps a title
  // that starts with a dash from reading as an option
  const args =
    cli === "gh"
      ? ["pr", "create", `--head=${branch}`, `--base=${base}`, `--title=${title}`, `--body=${body}`]
      : cli === "glab"
        ? [
            "mr",
            "create",
            `--source-branch=${branch}`,
            `--target-branch=${base}`,
            `--title=${title}`,
            `--description=${body}`,
            "--yes"
          ]
        : ["pulls", "create", `--head=${branch}`, `--base=${base}`, `--title=${title}`, `--description=${body}`]
  const out = await run(dir, cli, args)
  return out.match(/https?:\/\/\S+/g)?.at(-1)
}

export const ship = async (
  ctx: RunnerContext,
  dir: string,
  card: { id: string; ref: string; title: string },
  branch: string,
  base: string
): Promise<Shipped> => {
  await push(dir, branch)
  ctx.log.info("pushed", { card: card.ref, branch })
  let pullRequest: string | undefined
  if (ctx.config.openPr) {
    pullRequest = await openPullRequest(ctx, dir, card, branch, base)
    ctx.log.info("pull request opened", { card: card.ref, url: pullRequest ?? null })
  }
  return { branch, pullRequest }
}

/** The column a shipped card goes to: `--done-column` (name or id), else the first `in_progress` one. */
export const targetColumn = (
  columns: ReadonlyArray<{ id: string; name: string; kind: string }>,
  spec: string | undefined
) => {
  if (spec === undefined) return columns.find((c) => c.kind === "in_progress")
  const wanted = spec.trim().toLowerCase()
  return columns.find((c) => c.id === spec || c.name.trim().toLowerCase() === wanted)
}
