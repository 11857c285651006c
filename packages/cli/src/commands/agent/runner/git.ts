/**
 * The runner's git: every call is `git` with an argument list (never a shell), so a card's
 * title cannot become a command; the title reaches git only as the slug of a branch name.
 */
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"

export class GitError extends Error {}

export const git = (cwd: string, args: ReadonlyArray<string>, input?: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const child = execFile(
      "git",
      [...args],
      { cwd, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, GIT_TERMINAL_PROMPT: "0" } },
      (error, stdout, stderr) => {
        if (error !== null) reject(new GitError(`git ${args.join(" ")}: ${String(stderr).trim() || error.message}`))
        else resolve(String(stdout).trim())
      }
    )
    if (input !== undefined) child.stdin?.end(input)
  })

/** `WEB-12` and `Fix "login"; rm -rf /` → `web-12-fix-login-rm-rf`: letters, digits and dashes only. */
export const branchName = (ref: string, title: string): string => {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/g, "")
  const base = ref.toLowerCase().replace(/[^a-z0-9-]/g, "")
  return slug === "" ? base : `${base}-${slug}`
}

/** Refuses what the runner cannot work in: not a repository, changes not committed, no `origin`. */
export const checkRepo = async (repo: string): Promise<string> => {
  if (!fs.existsSync(repo)) throw new GitError(`--repo ${repo}: no such directory`)
  let top: string
  try {
    top = await git(repo, ["rev-parse", "--show-toplevel"])
  } catch {
    throw new GitError(`--repo ${repo} is not a git repository`)
  }
  try {
    await git(top, ["remote", "get-url", "origin"])
  } catch {
    throw new GitError(`--repo ${top} has no remote named origin; add one (git remote add origin URL)`)
  }
  const dirty = await git(top, ["status", "--porcelain"])
  if (dirty !== "") throw new GitError(`--repo ${top} has uncommitted changes; commit or stash them first:\n${dirty}`)
  return top
}

/** The default branch of origin, fetched: `main`. */
export const fetchDefault = async (repo: string): Promise<string> => {
  await git(repo, ["fetch", "--quiet", "origin"])
  const remote = await git(repo, ["ls-remote", "--symref", "origin", "HEAD"])
  const m = /^ref: refs\/heads\/(\S+)\s+HEAD/m.exec(remote)
  if (m !== null) return m[1]
  const local = await git(repo, ["symbolic-ref", "--short", "refs/remotes/origin/HEAD"]).catch(() => "")
  if (local.startsWith("origin/")) return local.slice("origin/".length)
  throw new GitError("cannot tell origin's default branch (git ls-remote --symref origin HEAD named none)")
}

export const worktreeDir = (repo: string, branch: string) =>
  path.join(repo, ".git", "board-runner", "worktrees", branch)

const branchExists = (repo: string, branch: string) =>
  git(repo, ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`]).then(
    () => true,
    () => false
  )

/**
 * A worktree for the card: on its branch when the runner made it before (a follow-up), else a
 * new branch from origin's default branch. Answers where and the commit it starts from.
 */
export const addWorktree = async (
  repo: string,
  branch: string,
  base: string
): Promise<{ dir: string; start: string }> => {
  const dir = worktreeDir(repo, branch)
  if (fs.existsSync(dir)) await git(repo, ["worktree", "remove", "--force", dir]).catch(() => undefined)
  await git(repo, ["worktree", "prune"])
  fs.mkdirSync(path.dirname(dir), { recursive: true })
  if (await branchExists(repo, branch)) await git(repo, ["worktree", "add", "--quiet", dir, branch])
  else await git(repo, ["worktree", "add", "--quiet", "-b", branch, dir, `origin/${base}`])
  return { dir, start: await git(dir, ["rev-parse", "HEAD"]) }
}

export const removeWorktree = (repo: string, dir: string) =>
  git(repo, ["worktree", "remove", "--force", dir]).catch(() => undefined)

/** Commits what the command left uncommitted, with a message naming the card; false when nothing was left. */
export const commitLeftovers = async (dir: string, ref: string): Promise<boolean> => {
  await git(dir, ["add", "--all"])
  if ((await git(dir, ["status", "--porcelain"])) === "") return false
  // the operator's identity when git has one, else the runner's own
  const known = (await git(dir, ["config", "user.email"]).catch(() => "")) !== ""
  const identity = known ? [] : ["-c", "user.name=board agent runner", "-c", "user.email=runner@board.invalid"]
  await git(dir, [
    ...identity,
    "commit",
    "--quiet",
    "--no-verify",
    "-m",
    `${ref}: changes left uncommitted by the agent`
  ])
  return true
}

export const head = (dir: string) => git(dir, ["rev-parse", "HEAD"])

export const push = (dir: string, branch: string) =>
  git(dir, ["push", "--quiet", "--set-upstream", "origin", `${branch}:refs/heads/${branch}`])

export const originUrl = (repo: string) => git(repo, ["remote", "get-url", "origin"])
