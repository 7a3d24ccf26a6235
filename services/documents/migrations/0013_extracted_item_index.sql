-- An extracted document follows its file (deleted, restored, removed on a move to another company): those
-- statements find it by (firm_id, item_id), which no index served, so each scanned the whole table inside
-- the transaction that holds the file's folder (38 ms at 200,000 rows, and growing with them).
-- CREATE INDEX takes a SHARE lock on extracted_documents for the build: reads go on, writes to extracted
-- documents (uploads of bulk documents, splits, annotations) wait until the migration commits.
CREATE INDEX "extracted_item_idx" ON "extracted_documents" USING btree ("firm_id","item_id");