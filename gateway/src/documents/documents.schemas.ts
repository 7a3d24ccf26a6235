import { CONTROL_CHARACTERS_MESSAGE as CONTROL, isUuid } from '@portico/platform';
import { z } from 'zod';
import { noControl, queryNumber } from '../validation/fields.js';

/**
 * Bodies of the documents calls (spec 1 s.7.6), with the spec's camelCase keys. The documents service
 * validates again what it owns (names, paths, rights); this layer checks shapes and sizes, that ids stored
 * in uuid columns are UUIDs and that text holds no control characters (PostgreSQL refuses NUL in text).
 */
const PATH_CONTROL = 'Path must not contain control characters';
const TOO_LONG_ID = 'Must be at most 100 characters';
const CHOOSE_FILE = 'Please choose at least one file';
const PAGES = 'Enter pages like 1-3, 5';

const companyId = () =>
  z
    .string({ error: 'Company is missing' })
    .trim()
    .min(1, 'Company is missing')
    .max(100, TOO_LONG_ID)
    .refine(noControl(), CONTROL);
const path = () =>
  z
    .string({ error: 'Must be text' })
    .max(2_000, 'Path is too long')
    .refine(noControl(), PATH_CONTROL)
    .default('');
/** A path that must be given (an item's link). */
const requiredPath = () =>
  z
    .string({ error: 'Path is missing' })
    .min(1, 'Path is missing')
    .max(2_000, 'Path is too long')
    .refine(noControl(), PATH_CONTROL);
const flag = () => z.boolean({ error: 'Must be true or false' }).default(false);
const name = (missing: string) =>
  z
    .string({ error: missing })
    .trim()
    .min(1, missing)
    .max(255, 'Name is too long')
    .refine(noControl(), CONTROL);
const text = (max: number, control = CONTROL) =>
  z
    .string({ error: 'Must be text' })
    .max(max, `Must be at most ${max} characters`)
    .refine(noControl(true), control);
const tags = () => z.array(text(100), { error: 'Tags must be a list' }).max(50, 'At most 50 tags');
const id = (missing: string) =>
  z.string({ error: missing }).trim().min(1, missing).max(100, TOO_LONG_ID).refine(noControl(), CONTROL);
/** The files (or their upload ids) of one upload: 1 to 999 (spec 1 s.9). */
const filesOfOneUpload = <T extends z.ZodType>(file: T) =>
  z
    .array(file, { error: CHOOSE_FILE })
    .min(1, CHOOSE_FILE)
    .max(999, 'You can upload up to 999 files at once');
/** An id the service keeps in a uuid column. */
const uuid = (missing: string, invalid: string) =>
  z.string({ error: missing }).trim().min(1, missing).max(36, invalid).refine(isUuid, invalid);

/**
 * The caller's name for a zip it waits for (a UUID it chose): how far the zip has come reaches the
 * caller's realtime sockets under it. Optional; '' is the same as none.
 */
const progressId = () =>
  z
    .string({ error: 'This progress id is not valid' })
    .trim()
    .max(36, 'This progress id is not valid')
    .refine((v) => v === '' || isUuid(v), 'This progress id is not valid')
    .optional();

export const getDocumentsBody = z.object({
  companyId: companyId(),
  path: path(),
  showWithDeleted: flag(),
  /** The file manager's lean item shape (defaults and the listing's path and company left out). */
  lean: flag(),
});

export const searchDocumentsBody = z.object({
  companyId: companyId(),
  searchTerm: text(200).default(''),
  showWithDeleted: flag(),
});

export const createFolderBody = z.object({
  companyId: companyId(),
  path: path(),
  name: name('Please enter a folder name'),
});

export const renameItemBody = z.object({
  companyId: companyId(),
  path: path(),
  itemName: name('Item is missing'),
  newName: name('Please enter a name'),
});

export const moveItemBody = z.object({
  companyId: companyId(),
  oldPath: requiredPath(),
  newPath: path(),
  deleteOldPath: flag(),
  isFolder: flag(),
  newCompanyId: z
    .string({ error: 'Must be text' })
    .trim()
    .max(100, TOO_LONG_ID)
    .refine(noControl(), CONTROL)
    .optional(),
});

export const updateDocumentBody = z.object({
  companyId: companyId(),
  link: requiredPath(),
  description: text(1_000).optional(),
  tags: tags().optional(),
});

export const downloadDocumentBody = z.object({
  companyId: companyId(),
  link: requiredPath(),
  isDownload: flag(),
});

export const downloadFolderBody = z.object({
  companyId: companyId(),
  path: path(),
  convertImagesToPdf: flag(),
  progressId: progressId(),
});

export const downloadMultipleBody = z.object({
  companyId: companyId(),
  links: z
    .array(
      z
        .string({ error: 'Please select files' })
        .min(1, 'Please select files')
        .max(2_000, 'Path is too long')
        .refine(noControl(), PATH_CONTROL),
      { error: 'Please select files' },
    )
    .min(1, 'Please select files')
    .max(999, 'At most 999 files'),
  convertImagesToPdf: flag(),
  progressId: progressId(),
});

export const deleteDocumentBody = z.object({
  companyId: companyId(),
  path: path(),
  documentName: name('Document is missing'),
  isFolder: flag(),
});

export const removePathBody = z.object({
  companyId: companyId(),
  path: requiredPath(),
});

/** `id` picks one of the deleted items at that path; blank or left out, the path alone does. */
export const restoreBody = removePathBody.extend({
  id: z
    .string({ error: 'Must be text' })
    .trim()
    .max(100, 'This document id is not valid')
    .refine((value) => !value || isUuid(value), 'This document id is not valid')
    .optional(),
});

const uploadFile = z.object(
  {
    name: name('File name is missing'),
    size: z
      .number({ error: 'File size is missing' })
      .int('File size must be a whole number of bytes')
      .min(0, 'File size must be a whole number of bytes'),
    contentType: text(200).optional(),
  },
  { error: 'Each file needs a name and a size' },
);

export const uploadLinksBody = z.object({
  companyId: companyId(),
  path: path(),
  files: filesOfOneUpload(uploadFile),
  documentType: text(50).default(''),
  taxYear: text(10).default(''),
});

export const processDocumentBody = z.object({
  companyId: companyId(),
  path: path(),
  uploadIds: filesOfOneUpload(uuid('Upload is missing', 'This upload is not valid')),
  questionnaireId: text(100).default(''),
  description: text(1_000).default(''),
  markedAsOthers: flag(),
  requiresSplitting: flag(),
  selectedOptions: z
    .array(text(200), { error: 'Options must be a list' })
    .max(100, 'At most 100 options')
    .default([]),
  tags: tags().default([]),
  shouldSkipMatching: flag(),
  documentType: text(50).default(''),
  newName: text(255).default(''),
  taxYear: text(10).default(''),
});

export const attachBody = z.object({
  questionnaireId: id('Please choose a questionnaire'),
  companyId: companyId(),
  extractedDocumentIds: z
    .array(id('Document is missing'), { error: 'Please select documents' })
    .min(1, 'Please select documents')
    .max(999, 'At most 999 documents'),
});

const number = () => z.number({ error: 'Must be a number' });
const annotation = z.object(
  {
    id: text(100).optional(),
    page: number()
      .int('Page must be a whole number')
      .min(1, 'Pages start at 1')
      .max(100_000, 'No document has that many pages')
      .default(1),
    x: number().default(0),
    y: number().default(0),
    width: number().default(80),
    text: text(32).default(''),
    color: text(20).default('black'),
    fontSize: number()
      .int('Font size must be a whole number')
      .min(1, 'Font size must be 1 to 500')
      .max(500, 'Font size must be 1 to 500')
      .optional(),
    mode: text(20).default('textbox'),
  },
  { error: 'Each annotation must be an object' },
);

export const saveAnnotationsBody = z.object({
  company_id: companyId(),
  annotations: z
    .array(annotation, { error: 'Annotations must be a list' })
    .max(500, 'At most 500 annotations'),
});

/** Spec 2 s.7 gives a split the document and its parts; a company sent is checked against it. */
export const splitBody = z.object({
  companyId: companyId().optional(),
  documents: z
    .array(
      z.object(
        {
          name: text(255).default(''),
          differentiator: text(255).default(''),
          pages: z.string({ error: PAGES }).min(1, PAGES).max(500, PAGES).refine(noControl(), PAGES),
        },
        { error: PAGES },
      ),
      { error: PAGES },
    )
    .min(1, PAGES)
    .max(200, 'At most 200 documents'),
});

// The spec's payloads name only the extracted document; a company sent is checked against it.
export const updateDescriptionBody = z.object({
  companyId: companyId().optional(),
  description: text(1_000),
});
export const updateTagsBody = z.object({ companyId: companyId().optional(), tags: tags() });
export const updateMarkedAsOthersBody = z.object({
  companyId: companyId(),
  markedAsOthers: z.boolean({ error: 'Must be true or false' }),
});
export const companyQuery = z.object({ company_id: companyId() });
/**
 * A query or body whose company may be left out: delete_extracted_document and get_annotations have no
 * parameters in spec 1 s.7.6, so the service finds the document's company, or checks the one sent.
 */
export const optionalCompany = z.object({ company_id: companyId().optional() });

export const saveDropLinkBody = z.object({
  notifyUserIds: z
    .array(
      z
        .string({ error: 'Please select at least one user to receive notifications' })
        .trim()
        .max(100, TOO_LONG_ID)
        .refine(noControl(), CONTROL),
      { error: 'Please select at least one user to receive notifications' },
    )
    .max(200, 'At most 200 users'),
});

/** A page of received files: `page` is the `next_page` of the page before. */
export const dropOffsQuery = z.object({
  page: z
    .string({ error: 'This page of received files is not valid' })
    .trim()
    .max(200, 'This page of received files is not valid')
    .regex(/^[A-Za-z0-9_-]*$/, 'This page of received files is not valid')
    .default(''),
  limit: queryNumber(
    z.coerce
      .number({ error: 'Limit must be a number' })
      .int('Limit must be a whole number')
      .min(1, 'Limit must be 1 to 500')
      .max(500, 'Limit must be 1 to 500')
      .default(100),
  ),
});

export const deleteDropOffsBody = z.object({
  ids: z
    .array(uuid('Choose the files to delete', 'This file is not valid'), {
      error: 'Choose the files to delete',
    })
    .min(1, 'Choose the files to delete')
    .max(500, 'Delete at most 500 files at once'),
});

const TOO_MANY_FILES = 'You can upload up to 999 files at once';
/**
 * New files, and uploads handed out before whose links a long drop-off outlives (`renewUploadIds`,
 * signed again and counted once): either may be empty, not both, and 999 together at most.
 */
export const dropOffLinksBody = z
  .object({
    files: z.array(uploadFile, { error: CHOOSE_FILE }).max(999, TOO_MANY_FILES).default([]),
    renewUploadIds: z
      .array(uuid('Upload is missing', 'This upload is not valid'), { error: 'Uploads must be a list' })
      .max(999, TOO_MANY_FILES)
      .default([]),
  })
  .superRefine((body, ctx) => {
    if (!body.files.length && !body.renewUploadIds.length)
      ctx.addIssue({ code: 'custom', path: ['files'], message: CHOOSE_FILE });
    else if (body.files.length + body.renewUploadIds.length > 999)
      ctx.addIssue({ code: 'custom', path: ['files'], message: TOO_MANY_FILES });
  });

export const dropOffProcessBody = z.object({
  uploadIds: filesOfOneUpload(uuid('Upload is missing', 'This upload is not valid')),
  // Required, as on the page: the firm is told who dropped the files off.
  uploaderName: z
    .string({ error: 'Please enter your name' })
    .trim()
    .min(1, 'Please enter your name')
    .max(200, 'Must be at most 200 characters')
    .refine(noControl(), 'Your name contains characters that are not allowed'),
  uploaderEmail: z
    .string({ error: 'Please enter a valid email' })
    .trim()
    .min(1, 'Please enter a valid email')
    .max(254, 'Please enter a valid email')
    .refine(noControl(), 'Please enter a valid email'),
  note: text(2_000, 'The note contains characters that are not allowed').default(''),
});
