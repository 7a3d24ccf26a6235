-- Who is emailed of drop-offs is the firm preference firm_user_ids_to_receive_drop_link_notification, owned by identity.
DROP TABLE "drop_links" CASCADE;