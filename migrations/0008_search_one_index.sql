-- Card search (board/Search.ts) at a million cards: a query's words must all appear in a card's
-- title or its description, each word in either. With one trigram index per column every word
-- is an OR of two index scans and the planner cannot intersect the words well: it fetched every
-- card holding any one of them (25,000 of 1,000,000 for "login timeout") to recheck the others.
-- One trigram index over title and description joined by a space answers all words in one GIN
-- scan that intersects their trigrams. The space cannot fake a match: the words of a query are
-- split on whitespace, so none contains one. Search reads titles from cards_title_trgm (title
-- matches rank first) and the rest from this index; nothing reads the description index now.
CREATE INDEX cards_search_trgm ON cards USING gin ((title || ' ' || COALESCE(description, '')) gin_trgm_ops);
DROP INDEX cards_description_trgm;
