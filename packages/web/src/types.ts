/**
 * The resources as the API answers them: the core's own types (`@board/core/contract`), so the
 * app and the server share one vocabulary. Type-only: nothing of the core reaches the bundle.
 */
export type {
  AgentSession,
  Board,
  Card,
  CardLink,
  Column,
  Comment,
  Label,
  Member,
  Project,
  ProjectLink,
  Subtask,
  Workspace
} from "@board/core/contract"
