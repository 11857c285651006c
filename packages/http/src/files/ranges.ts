/**
 * One `Range: bytes=…` request (RFC 9110 §14.2): `a-b`, `a-` or `-n`. Several ranges, other
 * units and malformed values are ignored (the whole file, 200), which the RFC allows and
 * electron-updater answers by downloading the whole file.
 */
export type RangeDecision =
  | { readonly kind: "none" }
  | { readonly kind: "range"; readonly start: number; readonly end: number }
  | { readonly kind: "unsatisfiable" }

export const parseRange = (header: string | undefined, size: number): RangeDecision => {
  if (header === undefined) return { kind: "none" }
  const m = /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header.trim())
  if (m === null || (m[1] === "" && m[2] === "")) return { kind: "none" }
  if (m[1] === "") {
    const suffix = Number(m[2])
    if (suffix === 0 || size === 0) return { kind: "unsatisfiable" }
    return { kind: "range", start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(m[1])
  if (m[2] !== "" && Number(m[2]) < start) return { kind: "none" }
  if (start >= size) return { kind: "unsatisfiable" }
  const end = m[2] === "" ? size - 1 : Number(m[2])
  return { kind: "range", start, end: Math.min(end, size - 1) }
}
