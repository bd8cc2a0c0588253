import type { Issue } from '../../api/client';
import type { PackDocument } from '../../lib/pack-document';

/** The draft editor's form values: exactly the body of `PATCH /api/packs/{packId}`. */
export interface DraftValues {
  name: string;
  document: PackDocument;
}

/** A refusal's issues as the draft form shows them: errors by form path, and those that name no field. */
export interface DraftErrors {
  fields: Record<string, string>;
  form: string[];
}

/**
 * The form path an issue names, or undefined when it names no field of the form. The pack routes answer
 * document paths relative to the document (`questions.0.id`); `document.questions[0].id` and
 * `document.questions.0.id` name the same field.
 */
export function draftFieldPath(issuePath: string): string | undefined {
  const dotted = issuePath.replace(/\[(\d+)\]/g, '.$1');
  if (dotted === 'name') return 'name';
  const path = dotted.startsWith('document.') ? dotted.slice('document.'.length) : dotted;
  if (path === 'questions' || path.startsWith('questions.')) return `document.${path}`;
  return undefined;
}

/** The issues of a refused save or publish, for `form.setErrors` (the first issue at a path wins). */
export function draftErrors(issues: Issue[]): DraftErrors {
  const fields: Record<string, string> = {};
  const form: string[] = [];
  for (const issue of issues) {
    const path = draftFieldPath(issue.path);
    if (path === undefined) form.push(issue.message);
    else fields[path] ??= issue.message;
  }
  return { fields, form };
}
