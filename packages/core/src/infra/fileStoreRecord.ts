/**
 * The server records where it keeps desktop build files (migrations/0009_file_store.sql), so an
 * operator command on the same PostgreSQL database can tell whether the files it would store
 * locally are the ones the server serves.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as path from "node:path"
import type { AppConfigValues } from "../Config.ts"
import { sqlNow } from "./clock.ts"
import { OperatorRefused } from "./operatorTarget.ts"

/** The folder local files go to, or undefined for S3 (and for `memory:`, which shares nothing). */
export const localFilesRoot = (config: AppConfigValues): string | undefined =>
  config.s3 !== undefined || config.dataDir === "memory:" ? undefined : path.join(path.resolve(config.dataDir), "files")

/** Run by the server at start, on PostgreSQL. */
export const recordFileStore = (config: AppConfigValues) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const now = yield* sqlNow
    const root = localFilesRoot(config) ?? null
    yield* sql`
      INSERT INTO file_store (one, local_root, recorded_at) VALUES (true, ${root}, ${now}::timestamptz)
      ON CONFLICT (one) DO UPDATE SET local_root = excluded.local_root, recorded_at = excluded.recorded_at`
  })

/** Fails with OperatorRefused when this configuration would store files where the server does not serve them. */
export const checkFileStore = (config: AppConfigValues, command: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ local_root: string | null }>`SELECT local_root FROM file_store`
    if (rows.length === 0) return // no server has started on this database yet
    const served = rows[0]!.local_root
    const mine = localFilesRoot(config) ?? null
    if (served === mine) return
    return yield* Effect.fail(
      new OperatorRefused(
        served === null
          ? `${command}: the server stores desktop builds in S3, but this command would store them in ${mine}; set S3_BUCKET (and the other S3_ variables) as the server has them`
          : mine === null
            ? `${command}: the server stores desktop builds in ${served}, but this command would store them in S3; unset S3_BUCKET or run the command with the server's settings`
            : `${command}: the server serves desktop builds from ${served}, but this command would store them in ${mine}; set DATA_DIR to the server's data directory`
      )
    )
  })
