/**
 * Splits a migration file into single statements: @effect/sql-pg speaks only the extended
 * protocol, which refuses several commands in one prepared statement.
 * Top-level `;` outside quotes, dollar-quoted bodies and comments ends a statement.
 */
export const splitSql = (text: string): Array<string> => {
  const out: Array<string> = []
  let start = 0
  let i = 0
  while (i < text.length) {
    const c = text[i]
    const n = text[i + 1]
    if (c === "-" && n === "-") {
      const end = text.indexOf("\n", i)
      if (end < 0) break
      i = end
      continue
    }
    if (c === "/" && n === "*") {
      const end = text.indexOf("*/", i + 2)
      if (end < 0) break
      i = end + 2
      continue
    }
    if (c === "'" || c === '"') {
      let j = text.indexOf(c, i + 1)
      while (j >= 0 && text[j + 1] === c) j = text.indexOf(c, j + 2)
      if (j < 0) break
      i = j + 1
      continue
    }
    if (c === "$") {
      const tag = /^\$[A-Za-z_]*\$/.exec(text.slice(i))?.[0]
      if (tag !== undefined) {
        const end = text.indexOf(tag, i + tag.length)
        if (end < 0) break
        i = end + tag.length
        continue
      }
    }
    if (c === ";") {
      out.push(text.slice(start, i))
      start = i + 1
    }
    i++
  }
  out.push(text.slice(start))
  return out
    .map((s) => s.trim())
    .filter(
      (s) =>
        s
          .replace(/--.*$/gm, "")
          .replace(/\/\*[\s\S]*?\*\//g, "")
          .trim() !== ""
    )
}
