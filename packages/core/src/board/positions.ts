/** Dense 0-based positions: the rules shared by cards in a column, columns in a project and subtasks in a card. */

/** Where an insert or move lands: the requested index clamped to 0..length, or the end when none is given. */
export const clampPosition = (requested: number | undefined, length: number): number =>
  requested === undefined ? length : Math.max(0, Math.min(Math.trunc(requested), length))

/** True when `positions` is exactly 0..n-1 (in any order). */
export const isContiguous = (positions: ReadonlyArray<number>): boolean => {
  const sorted = [...positions].sort((a, b) => a - b)
  return sorted.every((p, i) => p === i)
}
