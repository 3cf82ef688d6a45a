// Reading an authorization someone else produced (the Export format, or the seed's stored
// authorization {orderId, authorization, signature}) through the one file reader the language
// server also uses. Pure: no vscode import.
import { readAuthorizationFile, unreadableMessage, type AuthorizationFileValue } from './authorizationFile';
import { InputError } from './model';

export type ParsedImport = AuthorizationFileValue;

/**
 * The file's value, or an InputError with the reader's sentences when a field cannot be read.
 * Accepts the JSON text or an already parsed object (a command argument). A seed payload without
 * captureRoute is captured by receiveWithAuthorization, whatever it was signed as.
 */
export function parseImport(json: unknown): ParsedImport {
  let text: string;
  if (typeof json === 'string') text = json;
  else if (typeof json === 'object' && json !== null) text = JSON.stringify(json, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  else throw new InputError('expected a stored authorization: a JSON object {orderId, authorization, signature}');
  const reading = readAuthorizationFile(text);
  if (!reading.value) throw new InputError(unreadableMessage(reading));
  return reading.value;
}
