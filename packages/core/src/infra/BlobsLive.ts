/** The build store for this configuration: S3 when S3_BUCKET is set, else DATA_DIR/files. */
import { Effect, Layer } from "effect"
import { AppConfig } from "../Config.ts"
import { layerLocal } from "./BlobsLocal.ts"
import { layerS3 } from "./BlobsS3.ts"

/** Needs AppConfig and ServerSecret (the local store signs its links with the `downloads` key). */
export const BlobsLive = Layer.unwrap(Effect.gen(function*() {
  const config = yield* AppConfig
  return config.s3 !== undefined ? layerS3(config.s3) : layerLocal
}))
