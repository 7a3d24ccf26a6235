-- STAFF ONLY read the same way here as in the service (paths.rules' staffOnlyForm). upper() follows the
-- database's collation, JavaScript's toUpperCase Unicode's full case mapping: a folder named 'Staﬀ Only'
-- (the ff ligature) was STAFF ONLY to the service and not to this trigger, so the lean listing showed it
-- to clients. Both now compare the name's NFKC form with ASCII letters in capitals.
CREATE OR REPLACE FUNCTION items_listing_json() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.listing_json := concat(
    '{"id":"', NEW.id, '","name":', to_json(NEW.name), ',"type":', to_json(NEW.type),
    CASE WHEN NEW.description <> '' THEN ',"description":' || to_json(NEW.description) END,
    CASE WHEN cardinality(NEW.tags) > 0 THEN ',"tags":' || to_json(NEW.tags) END,
    ',"created_at":"', to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), '"',
    CASE WHEN NEW.updated_at <> NEW.created_at
      THEN ',"updated_at":"' || to_char(NEW.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"' END,
    CASE WHEN NEW.deleted_at IS NOT NULL
      THEN ',"deleted_at":"' || to_char(NEW.deleted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"' END,
    CASE WHEN NEW.questionnaire_id <> '' THEN ',"questionnaire_id":' || to_json(NEW.questionnaire_id) END,
    CASE WHEN NEW.extracted_document_id IS NOT NULL
      THEN ',"extracted_document_id":"' || NEW.extracted_document_id || '"' END,
    CASE WHEN NEW.parent_document_id IS NOT NULL
      THEN ',"parent_document_id":"' || NEW.parent_document_id || '"' END,
    CASE WHEN NEW.size <> 0 THEN ',"size":"' || NEW.size || '"' END,
    CASE WHEN NEW.content_type <> '' THEN ',"content_type":' || to_json(NEW.content_type) END,
    CASE WHEN NEW.is_protected THEN ',"is_protected":true' END,
    CASE WHEN NEW.is_system THEN ',"is_system":true' END,
    CASE WHEN NEW.preview_status <> 'none' THEN ',"preview_status":' || to_json(NEW.preview_status) END,
    CASE WHEN NEW.upload_type <> '' THEN ',"upload_type":' || to_json(NEW.upload_type) END,
    '}');
  -- Its size inside a JSON string, less the two quotes: what a listing page counts against its budget.
  NEW.listing_bytes := octet_length(to_json(NEW.listing_json)::text) - 2;
  -- paths.rules' isStaffOnly for the item's own name, as staffOnlyForm reads it: NFKC, ASCII capitals.
  NEW.staff_only := translate(normalize(NEW.name, NFKC), 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')
    LIKE '%STAFF ONLY%';
  RETURN NEW;
END
$$;
--> statement-breakpoint
SELECT set_config('app.bypass_rls', 'on', true);
--> statement-breakpoint
-- Only the rows the new reading changes go through the trigger again.
UPDATE items SET name = name
WHERE staff_only IS DISTINCT FROM (
  translate(normalize(name, NFKC), 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') LIKE '%STAFF ONLY%'
);
--> statement-breakpoint
SELECT set_config('app.bypass_rls', '', true);
