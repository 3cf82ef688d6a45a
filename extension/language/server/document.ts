// Reading a `.jsonrpc` file: JSON with comments holding one or more top-level values one after
// another (whitespace or comments between them), each a request object or an array of them (a
// batch); plus `// @endpoint` and `// @profile` directive comments. Parsing is done by
// jsonc-parser (VS Code's own JSON scanner and parser), which keeps every node's offset, so
// diagnostics, hovers and code lenses point at exact ranges. Pure: no vscode import, no I/O.
import { createScanner, parseTree, printParseErrorCode, type Node, type ParseError } from './jsonc';

// jsonc-parser's SyntaxKind is a const enum (not usable with isolatedModules): its values.
const TOKEN = {
  OpenBrace: 1, CloseBrace: 2, OpenBracket: 3, CloseBracket: 4, Comma: 5, Colon: 6,
  Null: 7, True: 8, False: 9, String: 10, Number: 11, LineComment: 12, BlockComment: 13, LineBreak: 14, Trivia: 15, Unknown: 16, EOF: 17,
} as const;

export type Severity = 'error' | 'warning' | 'information' | 'hint';

/** A diagnostic in offsets; server.ts turns it into an LSP diagnostic. */
export interface Problem {
  offset: number;
  length: number;
  severity: Severity;
  message: string;
  /** A stable code per rule, shown in the Problems view and used by tests. */
  code: string;
  /** A quick fix: replace [offset, offset + length) with newText. */
  fix?: Fix;
}

export interface Fix {
  title: string;
  offset: number;
  length: number;
  newText: string;
}

export interface Directive {
  value: string;
  /** The value's offset and length in the document. */
  offset: number;
  length: number;
}

export interface Directives {
  endpoint?: Directive;
  profile?: Directive;
}

/** One top-level value: a single request object, or a batch (array). */
export interface Segment {
  index: number;
  offset: number;
  length: number;
  root: Node | undefined;
  batch: boolean;
}

/** One request object, in a segment or a batch. */
export interface RequestEntry {
  segment: number;
  /** Position inside the batch; undefined for a single request. */
  element?: number;
  node: Node;
}

export interface ParsedRpcDocument {
  text: string;
  directives: Directives;
  directiveProblems: Problem[];
  segments: Segment[];
  requests: RequestEntry[];
  syntaxProblems: Problem[];
}

const DIRECTIVE = /^\/\/\s*@([A-Za-z]+)\b[:\s]*(.*?)\s*$/;

/** Shifts every offset of a tree parsed from a slice of the document. */
function shift(node: Node, by: number): void {
  // jsonc-parser's Node type is read-only, its objects are plain and ours.
  const writable = node as { offset: number; colonOffset?: number };
  writable.offset += by;
  if (writable.colonOffset !== undefined) writable.colonOffset += by;
  for (const child of node.children ?? []) shift(child, by);
}

function syntaxMessage(error: ParseError): string {
  const code = printParseErrorCode(error.error);
  const readable: Record<string, string> = {
    InvalidSymbol: 'invalid symbol', InvalidNumberFormat: 'invalid number', PropertyNameExpected: 'property name expected',
    ValueExpected: 'value expected', ColonExpected: 'colon expected', CommaExpected: 'comma expected',
    CloseBraceExpected: 'closing brace expected', CloseBracketExpected: 'closing bracket expected',
    EndOfFileExpected: 'end of value expected', InvalidCommentToken: 'invalid comment', UnexpectedEndOfComment: 'unterminated comment',
    UnexpectedEndOfString: 'unterminated string', UnexpectedEndOfNumber: 'unterminated number', InvalidUnicode: 'invalid unicode escape',
    InvalidEscapeCharacter: 'invalid escape character', InvalidCharacter: 'invalid character',
  };
  return `JSON: ${readable[code] ?? code}`;
}

/** Finds the `// @name value` directive comments. */
export function readDirectives(text: string): { directives: Directives; problems: Problem[] } {
  const directives: Directives = {};
  const problems: Problem[] = [];
  const scanner = createScanner(text, false);
  for (let token = scanner.scan(); token !== TOKEN.EOF; token = scanner.scan()) {
    if (token !== TOKEN.LineComment) continue;
    const comment = text.substr(scanner.getTokenOffset(), scanner.getTokenLength());
    const match = DIRECTIVE.exec(comment);
    if (!match) continue;
    const [, name, value] = match;
    // The value ends the comment (trailing spaces aside).
    const valueOffset = scanner.getTokenOffset() + comment.trimEnd().length - value.length;
    const directive: Directive = value === ''
      ? { value, offset: scanner.getTokenOffset(), length: comment.length }
      : { value, offset: valueOffset, length: value.length };
    if (name === 'endpoint' || name === 'profile') {
      if (directives[name]) {
        problems.push({ ...span(directive), severity: 'warning', message: `a second @${name} directive: the first one applies`, code: 'directive-duplicate' });
        continue;
      }
      if (value === '') {
        problems.push({ ...span(directive), severity: 'error', message: `@${name} needs a value, e.g. ${name === 'profile' ? '// @profile public' : '// @endpoint Mock node (dedicated)'}`, code: 'directive-empty' });
        continue;
      }
      if (name === 'profile' && value !== 'public' && value !== 'dedicated') {
        problems.push({ ...span(directive), severity: 'error', message: `@profile is public or dedicated, not "${value}"`, code: 'directive-profile' });
        continue;
      }
      directives[name] = directive;
    } else {
      problems.push({ ...span(directive), severity: 'warning', message: `unknown directive @${name}: use @endpoint <name or URL> or @profile public|dedicated`, code: 'directive-unknown' });
    }
  }
  return { directives, problems };
}

function span(d: Directive): { offset: number; length: number } {
  return { offset: d.offset, length: d.length };
}

/** The top-level values of the text, found with the scanner (depth 0 starts and ends). */
function topLevelRanges(text: string): { ranges: { offset: number; end: number }[]; stray: Problem[] } {
  const ranges: { offset: number; end: number }[] = [];
  const stray: Problem[] = [];
  const scanner = createScanner(text, true);
  let depth = 0;
  let start = -1;
  for (let token = scanner.scan(); token !== TOKEN.EOF; token = scanner.scan()) {
    const offset = scanner.getTokenOffset();
    const end = offset + scanner.getTokenLength();
    if (depth === 0) {
      if (token === TOKEN.OpenBrace || token === TOKEN.OpenBracket) {
        start = offset;
        depth = 1;
      } else if (token === TOKEN.String || token === TOKEN.Number || token === TOKEN.True || token === TOKEN.False || token === TOKEN.Null) {
        ranges.push({ offset, end });
      } else {
        stray.push({
          offset, length: Math.max(1, end - offset), severity: 'error', code: 'syntax',
          message: token === TOKEN.Comma ? 'JSON: requests follow one another without commas (or put them in an array: a batch)' : 'JSON: unexpected text between requests',
        });
      }
      continue;
    }
    if (token === TOKEN.OpenBrace || token === TOKEN.OpenBracket) depth++;
    else if (token === TOKEN.CloseBrace || token === TOKEN.CloseBracket) {
      depth--;
      if (depth === 0) {
        ranges.push({ offset: start, end });
        start = -1;
      }
    }
  }
  if (depth > 0 && start >= 0) ranges.push({ offset: start, end: text.length });
  return { ranges, stray };
}

/** Parses a `.jsonrpc` document. */
export function parseRpcDocument(text: string): ParsedRpcDocument {
  const { directives, problems: directiveProblems } = readDirectives(text);
  const { ranges, stray } = topLevelRanges(text);
  const syntaxProblems: Problem[] = [...stray];
  const segments: Segment[] = [];
  const requests: RequestEntry[] = [];
  ranges.forEach((range, index) => {
    const errors: ParseError[] = [];
    const root = parseTree(text.slice(range.offset, range.end), errors, { allowTrailingComma: false, disallowComments: false, allowEmptyContent: false });
    if (root) shift(root, range.offset);
    for (const error of errors) {
      syntaxProblems.push({ offset: error.offset + range.offset, length: Math.max(1, error.length), severity: 'error', message: syntaxMessage(error), code: 'syntax' });
    }
    const batch = root?.type === 'array';
    segments.push({ index, offset: range.offset, length: range.end - range.offset, root, batch });
    if (!root) return;
    if (batch) (root.children ?? []).forEach((node, element) => requests.push({ segment: index, element, node }));
    else requests.push({ segment: index, node: root });
  });
  return { text, directives, directiveProblems, segments, requests, syntaxProblems };
}

/** The segment that holds `offset` (or the nearest one before it). */
export function segmentAt(doc: ParsedRpcDocument, offset: number): Segment | undefined {
  let found: Segment | undefined;
  for (const segment of doc.segments) {
    if (segment.offset <= offset) found = segment;
    if (offset <= segment.offset + segment.length && segment.offset <= offset) return segment;
  }
  return found ?? doc.segments[0];
}

/** A property's value node in an object node. */
export function property(object: Node | undefined, name: string): Node | undefined {
  if (object?.type !== 'object') return undefined;
  const prop = object.children?.find((c) => c.type === 'property' && c.children?.[0]?.value === name);
  return prop?.children?.[1];
}

/** The property nodes of an object node: [key, value]. */
export function properties(object: Node): { key: Node; value: Node | undefined; name: string }[] {
  return (object.children ?? [])
    .filter((c) => c.type === 'property' && c.children?.[0])
    .map((c) => ({ key: c.children![0], value: c.children![1], name: String(c.children![0].value) }));
}

/** The source text of a node (the raw number, the quoted string). */
export function rawText(text: string, node: Node): string {
  return text.substr(node.offset, node.length);
}
