-- The board card's compact pull-request mark (issue 31, "seen everywhere"): a summary of the
-- card's linked pull requests, kept on the card row so the board stays one column read per card
-- (a per-card lateral subquery over card_pull_requests and forge_checks would cost the
-- 1,000-card board its hot path). Written in the transaction of the delivery that changed a
-- linked pull request, its checks or its links (core/src/forge/forgeSync.ts, `markSql`), and
-- when a repository's removal drops links (Forge.disconnect):
--   checks_failing  a linked pull request that is not closed has failing checks;
--   open            else a linked pull request is open or draft;
--   merged          else a linked pull request is merged;
--   NULL            else (no links, or only closed pull requests).
-- Shipped is its own pair of columns (shipped_at, shipped_to): a client shows it over this mark.
ALTER TABLE cards ADD COLUMN pull_request_mark text
  CHECK (pull_request_mark IN ('open', 'merged', 'checks_failing'));

-- The cards linked before this migration get their mark now (a delivery then only raises it, or
-- reads the card's pull requests again when one falls: forgeRows.ts `markCte`).
UPDATE cards c SET pull_request_mark = m.mark
FROM (
  SELECT cpr.card_id, CASE
      WHEN bool_or(pr.state <> 'closed' AND ck.checks = 'failure') THEN 'checks_failing'
      WHEN bool_or(pr.state IN ('open', 'draft')) THEN 'open'
      WHEN bool_or(pr.state = 'merged') THEN 'merged' END AS mark
  FROM card_pull_requests cpr
  JOIN pull_requests pr ON pr.id = cpr.pull_request_id
  CROSS JOIN LATERAL (
    SELECT CASE WHEN count(*) = 0 THEN NULL WHEN bool_or(fc.state = 'failure') THEN 'failure'
      WHEN bool_or(fc.state = 'pending') THEN 'pending' ELSE 'success' END AS checks
    FROM forge_checks fc WHERE fc.repository_id = pr.repository_id AND fc.sha = pr.head_sha
  ) ck
  GROUP BY cpr.card_id
) m
WHERE c.id = m.card_id AND m.mark IS NOT NULL;
