/** SPEC.md's natural-language endpoint. */
import { CommandResult, checkedId, limits, ProjectId } from "@board/core/contract"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { doc } from "../schemas.ts"
import { BadRequest, Forbidden, Conflict } from "../errors.ts"
import { UserAuth } from "../middleware/Authentication.ts"

export class CommandsGroup extends HttpApiGroup.make("commands")
  .add(
    HttpApiEndpoint.post("run", "/v1/nlu", {
      // the length and blank checks live in the core, whose messages carry a working example;
      // the document states them
      payload: Schema.Struct({ command: Schema.String, projectId: Schema.optionalKey(checkedId(ProjectId)) }),
      success: CommandResult,
      error: [BadRequest, Forbidden, Conflict]
    })
      .annotateMerge(
        doc(
          "Run a plain-English command",
          "Interprets a command such as `move WEB-12 to Done` or `create card Fix login in To do` offline and executes it with the caller's access; the answer says what it was understood as (`intent`) and what it did. 400 with a working example when the command is not understood."
        )
      )
      .middleware(UserAuth)
      .annotate(OpenApi.Transform, (op) => {
        const command = op.requestBody.content["application/json"].schema.properties.command
        Object.assign(command, { maxLength: limits.nluCommand, pattern: "\\S" })
        return op
      })
  )
  .annotateMerge(
    OpenApi.annotations({
      title: "Natural language",
      description: "Plain-English board commands, interpreted offline and executed with the caller's access."
    })
  ) {}
