import { useMemo } from "react"
import { renderMarkdown } from "../../lib/markdown.ts"

/**
 * Markdown shown as HTML. The only `dangerouslySetInnerHTML` in the panel, and it takes only
 * markdown-it's output with raw HTML disabled (lib/markdown.ts): the text is escaped, never parsed as HTML.
 */
export function Markdown({ text, className }: { text: string; className?: string }) {
  const html = useMemo(() => renderMarkdown(text), [text])
  // biome-ignore lint/security/noDangerouslySetInnerHtml: markdown-it output with raw HTML off (see above)
  return <div className={className ?? "md"} dangerouslySetInnerHTML={{ __html: html }} />
}
