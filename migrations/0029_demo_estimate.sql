-- Demonstration (issue 29): a new card field is its schema line and its column.
ALTER TABLE cards ADD COLUMN estimate integer;
