/**
 * The container check (issue 34), run by .ci/run after the suite: builds the image against a
 * local Debian base (this machine reaches no container registry: scripts/container/base.sh) and
 * proves, with podman, what a self-hoster relies on. Each step prints one line; a failure stops
 * the check with what was expected. Where podman cannot run, it says so and skips (exit 0).
 * Usage: node scripts/container/check.ts   (from the repository, after the install)
 */
import { execFileSync, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"

const root = path.resolve(import.meta.dirname, "../..")
const started = Date.now()
const tag = `c${process.pid}`
// CONTAINER_IMAGE: check an image built before instead of building one
const image = process.env.CONTAINER_IMAGE ?? `localhost/board:check-${tag}`
const base = process.env.CONTAINER_BASE ?? "localhost/board-base:bookworm-node24"
const created: Array<() => void> = []

const say = (line: string) => console.log(`container check (${((Date.now() - started) / 1000).toFixed(0)} s): ${line}`)
const fail = (line: string): never => {
  throw new Error(line)
}
const podman = (...args: Array<string>): string =>
  execFileSync("podman", args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim()
const tryPodman = (...args: Array<string>) => spawnSync("podman", args, { encoding: "utf8" })
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * `count` distinct ports free now, below Linux's ephemeral range (32768-60999), where no outgoing
 * connection takes one meanwhile. (A port computed from the pid, 33000 and up, lay inside it: a CI
 * run found one taken, right after the suite's thousands of connections, and `podman run -p`
 * failed with "address already in use".) Each is checked by listening on it.
 */
const freePorts = async (count: number): Promise<Array<number>> => {
  const listens = (p: number) =>
    new Promise<boolean>((resolve) => {
      const server = net.createServer()
      server.once("error", () => resolve(false))
      server.listen(p, "127.0.0.1", () => server.close(() => resolve(true)))
    })
  const found: Array<number> = []
  for (let tries = 0; found.length < count; tries++) {
    if (tries > 1000) fail("no free port found between 20000 and 32000")
    const p = 20000 + Math.floor(Math.random() * 12000)
    if (!found.includes(p) && (await listens(p))) found.push(p)
  }
  return found
}
let ports: Array<number> = []
const port = (n: number) => ports[n]!

/** `token`: a session (bootstrap endpoints) or an API key (`svc_…`, everything else). */
const api = async (baseUrl: string, method: string, p: string, body?: unknown, token?: string) => {
  const res = await fetch(`${baseUrl}/api${p}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(token === undefined
        ? {}
        : token.startsWith("svc_")
          ? { "x-api-key": token }
          : { authorization: `Bearer ${token}` })
    },
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : undefined }
}

const waitHealthy = async (name: string, baseUrl: string) => {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    // the image's own HEALTHCHECK, run now (podman runs it on a timer only under systemd)
    if (tryPodman("healthcheck", "run", name).status === 0) {
      const ready = await fetch(`${baseUrl}/api/v1/ready`).catch(() => undefined)
      if (ready?.ok) return
    }
    if (podman("inspect", name, "--format", "{{.State.Running}}") !== "true")
      fail(`${name} stopped while starting:\n${tryPodman("logs", name).stderr}`)
    await sleep(500)
  }
  fail(`${name} not healthy within 60 s:\n${tryPodman("logs", name).stderr}`)
}

const run = (name: string, args: ReadonlyArray<string>) => {
  podman("run", "-d", "--name", name, ...args)
  created.push(() => tryPodman("rm", "-f", "-t", "0", name))
}
const volume = (name: string) => {
  podman("volume", "create", name)
  created.push(() => tryPodman("volume", "rm", "-f", name))
  return name
}

const build = () => {
  const version = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).version
  say(`building ${image} on ${base}`)
  execFileSync(
    "podman",
    [
      "build",
      "--quiet",
      "--network",
      "host",
      "--format",
      "docker",
      "--build-arg",
      `BASE=${base}`,
      "--build-arg",
      `VERSION=${version}`,
      "-t",
      image,
      root
    ],
    { stdio: ["ignore", "ignore", "inherit"] }
  )
  created.push(() => tryPodman("rmi", "-f", image))
}

const main = async () => {
  if (spawnSync("podman", ["info"], { stdio: "ignore" }).status !== 0) {
    say("SKIPPED: podman cannot run here (install podman and runc: docs/container.md)")
    return
  }
  execFileSync("bash", [path.join(root, "scripts/container/base.sh"), base], { stdio: "inherit" })
  if (process.env.CONTAINER_IMAGE === undefined) build()
  const size = Number(podman("image", "inspect", image, "--format", "{{.Size}}"))
  const baseSize = Number(podman("image", "inspect", base, "--format", "{{.Size}}"))
  say(`image ${(size / 1e6).toFixed(0)} MB (${((size - baseSize) / 1e6).toFixed(0)} MB above the base)`)
  if (size > 350e6) fail(`the image is ${(size / 1e6).toFixed(0)} MB, over 350 MB`)

  // no PUBLIC_URL: one line that says what to set, and no server
  const refused = tryPodman("run", "--rm", image)
  if (refused.status === 0 || !/PUBLIC_URL/.test(refused.stderr))
    fail(`serve without PUBLIC_URL was not refused: ${refused.stderr}`)
  say("without PUBLIC_URL: refused with one line naming it")

  // the embedded database in a volume: healthy, non-root, a card survives a restart
  ports = await freePorts(4)
  const data = volume(`board-data-${tag}`)
  const one = `board-${tag}-1`
  const url1 = `http://127.0.0.1:${port(0)}`
  run(one, ["-p", `127.0.0.1:${port(0)}:8080`, "-v", `${data}:/data`, "-e", `PUBLIC_URL=${url1}`, image])
  await waitHealthy(one, url1)
  const uid = podman("exec", one, "id", "-u")
  if (uid === "0") fail("the server runs as root")
  const pid1 = podman("exec", one, "cat", "/proc/1/cmdline").split("\0")[0]
  say(`healthy on the embedded database, running as uid ${uid} under ${pid1}`)
  const signup = await api(url1, "POST", "/v1/auth/signup", {
    email: "ops@example.com",
    password: "container check passphrase 1",
    full_name: "Ops"
  })
  if (signup.status !== 201) fail(`signup: ${signup.status} ${JSON.stringify(signup.body)}`)
  const session = signup.body.session.access_token
  const ws = await api(url1, "POST", "/v1/workspaces", { name: "Ops" }, session)
  const project = await api(
    url1,
    "POST",
    "/v1/projects",
    { workspaceId: ws.body.workspace.id, name: "Site", template: "kanban" },
    session
  )
  const token = (await api(url1, "POST", "/v1/api-keys", { name: "check" }, session)).body.rawKey
  const card = await api(
    url1,
    "POST",
    "/v1/cards",
    { projectId: project.body.project.id, columnId: project.body.columns[0].id, title: "Survives a restart" },
    token
  )
  if (card.status !== 201) fail(`card: ${card.status} ${JSON.stringify(card.body)}`)
  const stopAt = Date.now()
  const stopped = tryPodman("stop", "-t", "10", one)
  const stopSeconds = (Date.now() - stopAt) / 1000
  if (stopped.status !== 0) fail(`podman stop failed: ${stopped.stderr}`)
  const exitCode = podman("inspect", one, "--format", "{{.State.ExitCode}}")
  const logs = tryPodman("logs", one)
  if (stopSeconds >= 10 || exitCode !== "0" || !/stopped/.test(logs.stdout + logs.stderr))
    fail(`stop took ${stopSeconds} s, exit ${exitCode}, log:\n${logs.stdout}${logs.stderr}`)
  say(`podman stop: exit 0 in ${stopSeconds.toFixed(1)} s, the log says the server stopped`)
  podman("start", one)
  await waitHealthy(one, url1)
  const again = await api(url1, "GET", `/v1/cards/${card.body.id}`, undefined, token)
  if (again.status !== 200 || again.body.title !== "Survives a restart") fail(`after restart: ${again.status}`)
  say("the card is there after a restart")

  // a backup made inside the container restores into a fresh one
  const backups = fs.mkdtempSync(path.join(os.tmpdir(), "board-backup-"))
  fs.chmodSync(backups, 0o777)
  created.push(() => fs.rmSync(backups, { recursive: true, force: true }))
  podman("stop", "-t", "10", one)
  podman(
    "run",
    "--rm",
    "-e",
    `PUBLIC_URL=${url1}`,
    "-v",
    `${data}:/data`,
    "-v",
    `${backups}:/backup`,
    image,
    "backup",
    "/backup/board.tar"
  )
  const fresh = volume(`board-restored-${tag}`)
  podman(
    "run",
    "--rm",
    "-e",
    `PUBLIC_URL=${url1}`,
    "-v",
    `${fresh}:/data`,
    "-v",
    `${backups}:/backup`,
    image,
    "restore",
    "/backup/board.tar"
  )
  const two = `board-${tag}-2`
  const url2 = `http://127.0.0.1:${port(1)}`
  run(two, ["-p", `127.0.0.1:${port(1)}:8080`, "-v", `${fresh}:/data`, "-e", `PUBLIC_URL=${url2}`, image])
  await waitHealthy(two, url2)
  const restored = await api(url2, "GET", `/v1/cards/${card.body.id}`, undefined, token)
  if (restored.status !== 200) fail(`restored card: ${restored.status} ${JSON.stringify(restored.body)}`)
  say("board backup in a container, board restore in a fresh one: the card is there")
  tryPodman("rm", "-f", "-t", "0", two)

  // PostgreSQL and Redis of the machine (host network): two containers share one board
  const pg = process.env.DATABASE_URL
  if (pg) {
    const redis = process.env.REDIS_URL
    const names = [0, 1].map((i) => `board-${tag}-pg${i}`)
    const urls = [port(2), port(3)].map((p) => `http://127.0.0.1:${p}`)
    for (const [i, name] of names.entries())
      run(name, [
        "--network",
        "host",
        "-e",
        `PORT=${port(2 + i)}`,
        "-e",
        "HOST=127.0.0.1",
        "-e",
        `PUBLIC_URL=${urls[0]}`,
        "-e",
        `DATABASE_URL=${pg}`,
        ...(redis ? ["-e", `REDIS_URL=${redis}`] : []),
        image
      ])
    await waitHealthy(names[0]!, urls[0]!)
    await waitHealthy(names[1]!, urls[1]!)
    const a = await api(urls[0]!, "POST", "/v1/auth/signup", {
      email: `pg-${tag}@example.com`,
      password: "container check passphrase 2",
      full_name: "Pg"
    })
    const s = a.body.session.access_token
    const w = await api(urls[0]!, "POST", "/v1/workspaces", { name: "Shared" }, s)
    const p = await api(
      urls[0]!,
      "POST",
      "/v1/projects",
      { workspaceId: w.body.workspace.id, name: "Shared", template: "kanban" },
      s
    )
    const t = (await api(urls[0]!, "POST", "/v1/api-keys", { name: "check" }, s)).body.rawKey
    const c = await api(
      urls[0]!,
      "POST",
      "/v1/cards",
      { projectId: p.body.project.id, columnId: p.body.columns[0].id, title: "Seen by both" },
      t
    )
    const seen = await api(urls[1]!, "GET", `/v1/cards/${c.body.id}`, undefined, t)
    if (seen.status !== 200) fail(`the second container did not see the card: ${seen.status}`)
    say(`two containers on the machine's PostgreSQL${redis ? " and Redis" : ""} share one board`)
    for (const name of names) tryPodman("rm", "-f", "-t", "10", name)
  } else say("no DATABASE_URL: the PostgreSQL step is SKIPPED")

  // compose.yaml parses (Debian's podman-compose has no `config`: a dry run of the PostgreSQL
  // profile's services reads the whole file), and its default service runs
  const composeProject = `boardcheck${tag}`
  const env = { ...process.env, BOARD_IMAGE: image, BOARD_PORT: String(port(0)), PUBLIC_URL: url1 }
  const dry = spawnSync(
    "podman-compose",
    [
      "-p",
      composeProject,
      "-f",
      path.join(root, "compose.yaml"),
      "--dry-run",
      "up",
      "-d",
      "--no-build",
      "board-pg",
      "postgres",
      "redis"
    ],
    { env, encoding: "utf8" }
  )
  if (dry.status !== 0 || !/postgres:17/.test(dry.stdout + dry.stderr)) fail(`compose.yaml: ${dry.stdout}${dry.stderr}`)
  created.push(() => {
    spawnSync("podman-compose", ["-p", composeProject, "-f", path.join(root, "compose.yaml"), "down", "-v"], {
      env,
      stdio: "ignore"
    })
    // what Debian's podman-compose leaves: the project's network, and the volumes its dry run made
    tryPodman("network", "rm", "-f", `${composeProject}_default`)
    for (const v of ["board-data", "board-files", "board-postgres"])
      tryPodman("volume", "rm", "-f", `${composeProject}_${v}`)
  })
  const up = spawnSync(
    "podman-compose",
    ["-p", composeProject, "-f", path.join(root, "compose.yaml"), "up", "-d", "--no-build", "board"],
    { env, encoding: "utf8" }
  )
  if (up.status !== 0) fail(`podman-compose up: ${up.stderr}`)
  const container = podman(
    "ps",
    "--filter",
    `label=io.podman.compose.project=${composeProject}`,
    "--format",
    "{{.Names}}"
  ).split("\n")[0]!
  await waitHealthy(container, url1)
  say("compose.yaml parses and its default service serves")
  say(`passed in ${((Date.now() - started) / 1000).toFixed(0)} s`)
}

try {
  await main()
} catch (e) {
  console.error(`container check FAILED: ${e instanceof Error ? e.message : String(e)}`)
  process.exitCode = 1
} finally {
  for (const undo of created.reverse()) undo()
}
