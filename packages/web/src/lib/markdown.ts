/**
 * Markdown from cards, comments and agents, rendered for display. Text written by anyone on the
 * board (or by an agent) must never run as script, so markdown-it runs with `html: false` (raw
 * HTML is escaped, not passed through) and its link validator, which refuses `javascript:`,
 * `vbscript:`, `file:` and non-image `data:` URLs. Links open in a new tab without handing the
 * opened page a reference to ours or our URL as referrer.
 */
import MarkdownIt from "markdown-it"

const md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: true })

const defaultLinkOpen =
  md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options))

md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx]!
  token.attrSet("rel", "noopener noreferrer")
  token.attrSet("target", "_blank")
  return defaultLinkOpen(tokens, idx, options, env, self)
}

/** The HTML of a Markdown text: safe to put in the page (see above). */
export const renderMarkdown = (text: string): string => md.render(text)
