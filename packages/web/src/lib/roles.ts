/** The workspace roles (CONTRACT.md "Teams"), in rank order, and what each lets the app offer. */
import type { Workspace } from "../types.ts"

export type Role = Workspace["role"]

export const ROLES: ReadonlyArray<Role> = ["owner", "admin", "member", "viewer"]

const RANK: Record<Role, number> = { viewer: 0, member: 1, admin: 2, owner: 3 }

/** Whether `role` is `needed` or above (the server's `roleReaches`, for showing controls only). */
export const reaches = (role: Role, needed: Role): boolean => RANK[role] >= RANK[needed]

/** The roles `me` may give (only an owner makes owners). */
export const assignableRoles = (me: Role): ReadonlyArray<Role> => ROLES.filter((r) => r !== "owner" || me === "owner")

/** Whether `me` may change or remove a member whose role is `theirs` (an owner's, only an owner). */
export const manages = (me: Role, theirs: Role): boolean =>
  reaches(me, "admin") && (theirs !== "owner" || me === "owner")
