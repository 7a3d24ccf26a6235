import type { FirmPreferences } from './preferences.js';

/** The firm preferences other services enforce on documents and the drop link, as the contract names them. */
export const documentPreferences = (prefs: FirmPreferences) => ({
  disableFolderAction: prefs.disable_folder_action,
  disableFileEditAction: prefs.disable_file_edit_action,
  documentTagsEnabled: prefs.document_tags_enabled,
  bulkUploadProcessor: prefs.bulk_upload_processor,
  annotationEnabled: prefs.annotation_enabled,
  dropLinkEnabled: prefs.drop_link_enabled,
  hideDocumentsViewFromClients: prefs.hide_documents_view_from_clients,
  hideSignInButtonOnDropLink: prefs.hide_sign_in_button_on_drop_link,
  firmUserIdsToReceiveDropLinkNotification: prefs.firm_user_ids_to_receive_drop_link_notification,
});
