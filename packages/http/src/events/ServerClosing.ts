/**
 * Tells long-lived responses (the event streams) that the server is closing. Node's
 * `server.close` waits for every open response, and the framework interrupts request fibers
 * only after that wait (up to 20 s): a stream that would otherwise never end ends at once.
 */
import { Context, Deferred, Exit, Layer } from "effect"

export class ServerClosing extends Context.Service<ServerClosing, Deferred.Deferred<void>>()(
  "board/http/ServerClosing"
) {}

/** The signal and its trigger, made by the server for its listener. */
export const makeServerClosing = () => {
  const closing = Deferred.makeUnsafe<void>()
  return {
    layer: Layer.succeed(ServerClosing, closing),
    close: () => void Deferred.doneUnsafe(closing, Exit.void)
  }
}
