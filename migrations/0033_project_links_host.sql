-- Rating a link counts the project's stored links on the link's site (links/ProjectLinks.ts):
-- `host IN (site, 'www.' || site)` within the project. Without this index the count reads every
-- link of the project (through project_links_list) to test its host; with it, only the links on
-- those two hosts.
CREATE INDEX project_links_host ON project_links (project_id, host);
