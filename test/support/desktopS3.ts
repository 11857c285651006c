/** A real S3-protocol server (s3rver) on loopback for the desktop suites, with one bucket. */
import S3rver from "s3rver"
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

export interface TestS3 {
  readonly endpoint: string
  readonly bucket: string
  /** The server's S3_* and AWS_* variables for this bucket. */
  readonly env: Record<string, string>
  readonly stop: () => Promise<void>
}

export const startS3 = async (bucket = "desktop-builds"): Promise<TestS3> => {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "board-s3-"))
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }]
  })
  const { address, port } = await server.run()
  const endpoint = `http://${address}:${port}`
  return {
    endpoint,
    bucket,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_FORCE_PATH_STYLE: "true",
      // s3rver's fixed account: it checks the access key and a presigned URL's expiry, not SigV4 signature values
      AWS_ACCESS_KEY_ID: "S3RVER",
      AWS_SECRET_ACCESS_KEY: "S3RVER"
    },
    stop: async () => {
      await server.close()
      fs.rmSync(directory, { recursive: true, force: true })
    }
  }
}

const rfc3986 = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
const hmac = (key: crypto.BinaryLike, data: string) => crypto.createHmac("sha256", key).update(data).digest()

/**
 * Checks a presigned GET URL's SigV4 signature the way S3 does (s3rver does not), so the links
 * the API hands out would also be accepted by AWS: canonical request over method, path, the
 * sorted query without the signature, the signed `host` header and UNSIGNED-PAYLOAD.
 */
export const presignedSignatureValid = (url: string, secretAccessKey: string): boolean => {
  const u = new URL(url)
  const q = u.searchParams
  const signature = q.get("X-Amz-Signature")
  const credential = q.get("X-Amz-Credential")
  const amzDate = q.get("X-Amz-Date")
  if (signature === null || credential === null || amzDate === null || q.get("X-Amz-SignedHeaders") !== "host")
    return false
  const query = [...q.entries()]
    .filter(([k]) => k !== "X-Amz-Signature")
    .map(([k, v]) => [rfc3986(k), rfc3986(v)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&")
  const canonical = ["GET", u.pathname, query, `host:${u.host}`, "", "host", "UNSIGNED-PAYLOAD"].join("\n")
  const [, date, region, service, terminal] = credential.split("/")
  const scope = [date, region, service, terminal].join("/")
  const toSign = ["AWS4-HMAC-SHA256", amzDate, scope, crypto.createHash("sha256").update(canonical).digest("hex")].join(
    "\n"
  )
  const key = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, date!), region!), service!), terminal!)
  return crypto.timingSafeEqual(
    Buffer.from(hmac(key, toSign).toString("hex")),
    Buffer.from(signature.padEnd(64, "0").slice(0, 64))
  )
}
