-- A lock this run waits for more than 5 s fails it (the migration Job tries again, backoffLimit 6), instead
-- of queueing every request of the running version behind it; and this run takes a table's lock in an
-- order the running version's transactions may not (a drop-off's process holds its uploads, then files
-- extracted documents and records events), so one of them and this run could wait on each other:
-- PostgreSQL then ends one of the two, a request (answered 503) or this run (tried again).
SET LOCAL lock_timeout = '5s';--> statement-breakpoint
-- An extracted document follows its file (deleted, restored, removed on a move to another company): those
-- statements find it by (firm_id, item_id), which no index served, so each scanned the whole table inside
-- the transaction that holds the file's folder (38 ms at 200,000 rows, and growing with them).
-- CREATE INDEX takes a SHARE lock on extracted_documents for the build: reads go on, writes to extracted
-- documents (uploads of bulk documents, splits, annotations) wait until the migration commits.
CREATE INDEX "extracted_item_idx" ON "extracted_documents" USING btree ("firm_id","item_id");