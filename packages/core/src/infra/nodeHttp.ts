/**
 * Node's `http` and `https` modules, taken with `process.getBuiltinModule`. An ESM import of
 * `node:http` (named or namespace) evaluates the module's lazy WebSocket exports, and they load
 * Node's fetch (undici): about 13 MiB of memory and 70 ms of CPU that `board serve` paid at every
 * start without using it. Import these, not `node:http`'s values (its types may be imported as
 * types). The CLI, which must not reach the core's barrel, takes its agents the same way
 * (cli/src/support/client.ts).
 */
export const http = process.getBuiltinModule("node:http")
export const https = process.getBuiltinModule("node:https")
