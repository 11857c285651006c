/** The domain's closed sets of values, each defined once: the list, its schema and its type. */
import { Schema } from "effect"

export const priorities = ["low", "medium", "high", "urgent"] as const
export const Priority = Schema.Literals(priorities)
export type Priority = typeof Priority.Type

export const linkTypes = ["relates_to", "blocks", "duplicates", "is_part_of"] as const
export const LinkType = Schema.Literals(linkTypes)
export type LinkType = typeof LinkType.Type

/** How relevant a project link is to its board, rated by the heuristic or by a person. */
export const relevances = ["none", "low", "medium", "high"] as const
export const Relevance = Schema.Literals(relevances)
export type Relevance = typeof Relevance.Type
/** A filter on links by rating: a relevance, or `unrated` for links not rated yet. */
export const RelevanceFilter = Schema.Literals([...relevances, "unrated"])
export type RelevanceFilter = typeof RelevanceFilter.Type

/** A member's role in a workspace. */
export const WorkspaceRole = Schema.Literals(["owner", "admin", "member", "viewer"])
export type WorkspaceRole = typeof WorkspaceRole.Type

/** The three prompts an agent can be given for a card. */
export const promptVariants = ["analysis", "draft", "execute"] as const
export const PromptVariant = Schema.Literals(promptVariants)
export type PromptVariant = typeof PromptVariant.Type

/**
 * What a column holds in the workflow: work waiting (`todo`), work under way (`in_progress`),
 * finished work (`done`). What reads "work waiting" goes by the kind, never a column's name or
 * place: the queue takes from `todo` columns, a card in a `done` column is never overdue.
 */
export const columnKinds = ["todo", "in_progress", "done"] as const
export const ColumnKind = Schema.Literals(columnKinds)
export type ColumnKind = typeof ColumnKind.Type
