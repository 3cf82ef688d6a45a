// Diagnostics of an `.authorization.json` file: the problems the one reader of the format
// (authorizations/authorizationFile.ts, also used by Import) finds, with the window judged by the
// clock the server knows for the file's chain (named in the message). Pure: text and clock in.
import { readAuthorizationFile, type FileClock } from '../../authorizations/authorizationFile';
import type { Problem } from './document';

export function analyzeAuthorization(text: string, clock: FileClock): Problem[] {
  return readAuthorizationFile(text, clock).problems;
}
