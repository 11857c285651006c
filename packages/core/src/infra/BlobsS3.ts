/**
 * The build store on S3 or any S3-compatible server (S3_BUCKET, S3_ENDPOINT, S3_REGION,
 * S3_FORCE_PATH_STYLE, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY). Downloads are SigV4
 * presigned GET URLs valid DOWNLOAD_URL_TTL seconds (S3's maximum is 7 days, which the config
 * enforces); with temporary (STS) credentials a link also dies when the session does.
 */
import { GetObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3"
import { getSignedUrl } from "@aws-sdk/s3-request-presigner"
import { Effect, Layer } from "effect"
import * as fs from "node:fs"
import { pipeline, Transform } from "node:stream"
import { AppConfig, type S3Settings } from "../Config.ts"
import { isBlobKey } from "../desktop/releaseRules.ts"
import { Blobs, type PutOptions } from "./Blobs.ts"

const failure = (what: string) => (cause: unknown) =>
  new Error(`S3 ${what} failed: ${cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause)}`)

const quiet = { trace: () => {}, debug: () => {}, info: () => {}, warn: () => {}, error: () => {} }

const checkedKey = (key: string) =>
  isBlobKey(key) ? Effect.succeed(key) : Effect.die(new Error(`not a storage key: ${JSON.stringify(key)}`))

export const layerS3 = (s3: S3Settings) =>
  Layer.effect(
    Blobs,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const ttl = config.downloadUrlTtlSeconds
      const client = yield* Effect.acquireRelease(
        Effect.sync(
          () =>
            new S3Client({
              region: s3.region,
              ...(s3.endpoint === undefined ? {} : { endpoint: s3.endpoint }),
              forcePathStyle: s3.forcePathStyle,
              ...(s3.accessKeyId !== undefined && s3.secretAccessKey !== undefined
                ? { credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } }
                : {}),
              // S3-compatible servers often lack the SDK's default trailing CRC32 checksums
              // (aws-chunked uploads); send and check them only where S3 requires them
              requestChecksumCalculation: "WHEN_REQUIRED",
              responseChecksumValidation: "WHEN_REQUIRED",
              // failures are reported by the caller; the SDK would also warn on the console
              logger: quiet
            })
        ),
        (c) => Effect.sync(() => c.destroy())
      )

      const putFile = (key: string, file: string, options: PutOptions) =>
        Effect.flatMap(checkedKey(key), (Key) =>
          Effect.tryPromise({
            try: (signal) => {
              let sent = 0
              const body = new Transform({
                transform(chunk: Buffer, _enc, done) {
                  sent += chunk.byteLength
                  options.onProgress?.(sent)
                  done(null, chunk)
                }
              })
              // a read error destroys the body, which fails the request
              pipeline(fs.createReadStream(file), body, () => {})
              return client.send(
                new PutObjectCommand({
                  Bucket: s3.bucket,
                  Key,
                  Body: body,
                  ContentLength: options.size,
                  ContentType: options.contentType
                }),
                { abortSignal: signal }
              )
            },
            catch: failure(`upload of ${key} to bucket ${s3.bucket}`)
          })
        ).pipe(Effect.orDie, Effect.asVoid)

      const putBytes = (key: string, bytes: Uint8Array, contentType: string) =>
        Effect.flatMap(checkedKey(key), (Key) =>
          Effect.tryPromise({
            try: (signal) =>
              client.send(
                new PutObjectCommand({
                  Bucket: s3.bucket,
                  Key,
                  Body: bytes,
                  ContentLength: bytes.byteLength,
                  ContentType: contentType
                }),
                {
                  abortSignal: signal
                }
              ),
            catch: failure(`upload of ${key} to bucket ${s3.bucket}`)
          })
        ).pipe(Effect.orDie, Effect.asVoid)

      const signedUrl = (key: string) =>
        Effect.flatMap(checkedKey(key), (Key) =>
          Effect.tryPromise({
            try: () => getSignedUrl(client, new GetObjectCommand({ Bucket: s3.bucket, Key }), { expiresIn: ttl }),
            catch: failure(`presigning ${key}`)
          })
        ).pipe(
          Effect.orDie,
          Effect.map((url) => ({ url, expiresIn: ttl }))
        )

      return Blobs.of({ kind: "s3", putFile, putBytes, signedUrl, local: undefined })
    })
  )
