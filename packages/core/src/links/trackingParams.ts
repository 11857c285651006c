// The single source of truth for query parameters that identify a click or a
// campaign rather than a page. Two submissions differing only in these are the
// same page (SPEC "Project links", rule 3), so normalizeUrl drops them.
//
// Deliberately absent: `ref`, `source`, `src`, `id`, `s`, `q`. They are tracking
// on some sites but select content on others (GitHub's `?ref=main` picks a
// branch), and a false merge loses a page while a missed merge only stores a
// duplicate row.

/** Any parameter whose lower-cased name starts with one of these is dropped. */
export const TRACKING_PARAM_PREFIXES: ReadonlyArray<string> = [
  "utm_", // Google Analytics campaign tags
  "mtm_", // Matomo campaign tags
  "pk_", // Piwik (pre-Matomo) campaign tags
  "hsa_", // HubSpot ads
  "__hs", // HubSpot cookies copied into links (__hstc, __hssc, __hsfp)
  "oly_", // Omeda
  "vero_" // Vero email
]

/** Parameters dropped by exact lower-cased name. */
export const TRACKING_PARAMS: ReadonlySet<string> = new Set([
  // Ad click identifiers
  "fbclid",
  "gclid",
  "gclsrc",
  "dclid",
  "gbraid",
  "wbraid",
  "msclkid",
  "yclid",
  "twclid",
  "ttclid",
  "li_fat_id",
  "epik",
  "rb_clickid",
  "srsltid",
  "wickedid",
  // Email and marketing automation
  "mc_cid",
  "mc_eid",
  "_hsenc",
  "_hsmi",
  "hsctatracking",
  "mkt_tok",
  "s_cid",
  // Analytics cross-domain linkers
  "_ga",
  "_gl",
  // Social share attribution
  "igshid",
  "igsh",
  "ref_src",
  "ref_url"
])

export const isTrackingParam = (name: string): boolean => {
  const key = name.toLowerCase()
  if (TRACKING_PARAMS.has(key)) return true
  return TRACKING_PARAM_PREFIXES.some((prefix) => key.startsWith(prefix))
}
