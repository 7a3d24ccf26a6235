-- A split hides its source (kept for its parts, shown nowhere in the tree) without deleting it: under
-- the old index the hidden row still held its name, so a new upload, folder or rename of that name in the
-- folder was refused while nothing of that name could be seen. Only the items the tree shows hold a name.
-- The new index is built first, under a temporary name: CREATE INDEX takes a SHARE lock on items, so
-- listings and reads go on during the build (writes wait). DROP INDEX takes ACCESS EXCLUSIVE, held until
-- the migration transaction commits: taken after the build, it only covers the drop and the rename.
-- The new index covers a subset of the old one's rows, so the build finds no duplicate.
CREATE UNIQUE INDEX "items_live_path_idx_next" ON "items" USING btree ("company_id","folder",lower("name")) WHERE "items"."deleted_at" is null and not "items"."hidden";--> statement-breakpoint
DROP INDEX "items_live_path_idx";--> statement-breakpoint
ALTER INDEX "items_live_path_idx_next" RENAME TO "items_live_path_idx";
