/** The build store for this configuration: S3 when S3_BUCKET is set, else DATA_DIR/files. */
import { Effect, Layer } from "effect"
import { AppConfig } from "../Config.ts"
import { layerLocal } from "./BlobsLocal.ts"

/** Needs AppConfig and ServerSecret (the local store signs its links with the `downloads` key). */
export const BlobsLive = Layer.unwrap(
  Effect.gen(function* () {
    const config = yield* AppConfig
    if (config.s3 === undefined) return layerLocal
    // the AWS SDK is loaded only when S3 is configured (it costs tens of MiB and start-up time)
    const { layerS3 } = yield* Effect.promise(() => import("./BlobsS3.ts"))
    return layerS3(config.s3)
  })
)
