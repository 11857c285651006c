/**
 * Node's `http` and `https` modules, loaded with `require`. An ESM import of `node:http` (named
 * or namespace) evaluates the module's lazy WebSocket exports, and they load Node's fetch
 * (undici): about 13 MiB of memory and 70 ms of CPU that `board serve` paid at every start
 * without using it. Effect's platform-node loads them the same way. Import these, not
 * `node:http`'s values (its types may be imported as types).
 */
import { createRequire } from "node:module"

const nodeRequire = createRequire(import.meta.url)

export const http: typeof import("node:http") = nodeRequire("node:http")
export const https: typeof import("node:https") = nodeRequire("node:https")
