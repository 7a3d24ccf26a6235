-- A split hides its source (kept for its parts, shown nowhere in the tree) without deleting it: under
-- the old index the hidden row still held its name, so a new upload, folder or rename of that name in the
-- folder was refused while nothing of that name could be seen. Only the items the tree shows hold a name.
DROP INDEX "items_live_path_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "items_live_path_idx" ON "items" USING btree ("company_id","folder",lower("name")) WHERE "items"."deleted_at" is null and not "items"."hidden";
