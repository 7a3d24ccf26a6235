-- Who asked for a drop-off link (a hash of the firm and the caller's address group): one caller's share
-- of the drop link's daily budget is counted by it. A nullable column: ACCESS EXCLUSIVE on uploads for a
-- moment, no row rewritten.
ALTER TABLE "uploads" ADD COLUMN "caller" text;
