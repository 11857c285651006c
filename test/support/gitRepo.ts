/**
 * Real git repositories for the runner's tests: a bare `origin` on disk with one commit on
 * main, and a clone of it to run in. Commits are made as a fixed test identity, with no global
 * git configuration read.
 */
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"

/** The fixed test identity, also given to the runner processes that commit. */
export const gitEnv = {
  GIT_AUTHOR_NAME: "Test",
  GIT_AUTHOR_EMAIL: "test@example.com",
  GIT_COMMITTER_NAME: "Test",
  GIT_COMMITTER_EMAIL: "test@example.com",
  GIT_CONFIG_GLOBAL: "/dev/null"
}

/** `git ARGS` in `cwd`; its standard output, trimmed (throws on a non-zero exit). */
export const git = (cwd: string, ...args: Array<string>) =>
  execFileSync("git", args, {
    cwd,
    env: { ...process.env, ...gitEnv },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"]
  }).trim()

/** A bare origin with one commit on main in `dir`, a clone of it (`work`), and more clones on demand. */
export const makeRepo = (dir: string) => {
  const origin = path.join(dir, "origin.git")
  git(dir, "init", "--quiet", "--bare", "-b", "main", origin)
  const work = path.join(dir, "work")
  git(dir, "clone", "--quiet", origin, work)
  fs.writeFileSync(path.join(work, "README.md"), "# app\n")
  git(work, "add", ".")
  git(work, "commit", "--quiet", "-m", "first")
  git(work, "push", "--quiet", "origin", "HEAD:main")
  return {
    dir,
    origin,
    work,
    clone: (name: string) => {
      git(dir, "clone", "--quiet", origin, name)
      return path.join(dir, name)
    }
  }
}
