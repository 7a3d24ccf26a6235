import { renderWithClient } from '@portico/kit/testing';
import type { DocItem } from '../api/documents-api.js';
import { documentsApi } from '../api/documents-api.js';
import { PreviewDialog } from '../preview/PreviewDialog.js';
import type { fakeApi } from './fixtures.js';

/** The preview dialog of `item` on the fake gateway `gw`, as the file manager opens it. */
export function renderPreview(
  item: DocItem,
  gw: ReturnType<typeof fakeApi>,
  onDownload = (_: DocItem) => {},
) {
  return renderWithClient(
    <PreviewDialog
      item={item}
      api={documentsApi(gw.client)}
      companyId="c-1"
      onClose={() => {}}
      onDownload={onDownload}
    />,
    gw.client,
  );
}
