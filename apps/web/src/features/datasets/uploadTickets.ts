import { api, ApiError, signInUrl, unwrap, type Issue, type Schemas } from '../../api/client';
import { csvRecordLines, jsonUploadBody, refusalRows, uploadFormat, type RefusalRow } from './datasets';

/** An upload that stored nothing: the reason, and where in the file it applies. */
export class UploadRefused extends Error {
  constructor(
    message: string,
    readonly rows: RefusalRow[] = [],
  ) {
    super(message);
  }
}

async function postCsv(datasetId: string, text: string): Promise<Schemas['UploadResultDto']> {
  const response = await fetch(`/api/datasets/${encodeURIComponent(datasetId)}/tickets`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'text/csv' },
    body: text,
  });
  if (response.ok) return (await response.json()) as Schemas['UploadResultDto'];
  if (response.status === 401) window.location.assign(signInUrl());
  const body = (await response.json().catch(() => ({}))) as { error?: unknown; issues?: unknown };
  throw new ApiError(
    response.status,
    typeof body.error === 'string' ? body.error : `request failed (${response.status})`,
    Array.isArray(body.issues) ? (body.issues as Issue[]) : [],
  );
}

/**
 * Uploads a .csv or .json file to a dataset. A refusal, the service's or this page's own (a file
 * that is neither, or not JSON), is an UploadRefused naming the lines or tickets it is about.
 */
export async function uploadTicketsFile(datasetId: string, file: File): Promise<Schemas['UploadResultDto']> {
  const format = uploadFormat(file.name, file.type);
  if (!format) throw new UploadRefused(`${file.name} is neither a .csv nor a .json file.`);
  const text = await file.text();
  try {
    if (format === 'csv') return await postCsv(datasetId, text);
    const json = jsonUploadBody(text);
    if (!json.ok) throw new UploadRefused(json.message);
    return await unwrap(
      api.POST('/api/datasets/{datasetId}/tickets', {
        params: { path: { datasetId } },
        body: json.body as Schemas['UploadTicketsDto'],
      }),
    );
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const lines = format === 'csv' ? csvRecordLines(text) : [];
    throw new UploadRefused(error.message, refusalRows(error.message, error.issues, format, lines));
  }
}
