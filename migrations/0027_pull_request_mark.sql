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
