// The one table `npm run bench` prints: every figure of both nodes, their ratio and the target.
export interface Figure {
  value: number;
  /** Server CPU behind the figure, when measured (printed after the value). */
  cpu?: string;
}

export interface Row {
  section: string;
  what: string;
  unit: string;
  mock: Figure;
  /** undefined: not measured on Anvil (no counterpart); NaN: Anvil not installed. */
  anvil?: Figure;
  /** Whether larger is better (throughput) or smaller (time, memory). */
  better: 'higher' | 'lower';
  target?: { text: string; holds: (row: Row) => boolean | undefined };
  note?: string;
}

export interface Verdict {
  what: string;
  mock: number;
  /** Whether the row compares with Anvil at all. */
  anvilColumn: boolean;
  anvil: number | null;
  ratio: number | null;
  target: string | null;
  holds: boolean | null;
}

function digits(value: number): number {
  const abs = Math.abs(value);
  return abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
}

export function fmt(value: number | undefined, unit = ''): string {
  if (value === undefined || !Number.isFinite(value)) return '—';
  return value.toLocaleString('en-US', { maximumFractionDigits: digits(value), minimumFractionDigits: 0 }) + (unit ? ` ${unit}` : '');
}

/** mock ÷ anvil, oriented so that > 1 always means the mock node does better. */
export function ratioOf(row: Row): number | undefined {
  if (!row.anvil || !Number.isFinite(row.anvil.value) || !Number.isFinite(row.mock.value) || row.mock.value === 0 || row.anvil.value === 0) return undefined;
  return row.better === 'higher' ? row.mock.value / row.anvil.value : row.anvil.value / row.mock.value;
}

export function verdicts(rows: readonly Row[]): Verdict[] {
  return rows.map((row) => ({
    what: `${row.section}: ${row.what}`,
    mock: row.mock.value,
    anvilColumn: row.anvil !== undefined,
    anvil: row.anvil && Number.isFinite(row.anvil.value) ? row.anvil.value : null,
    ratio: ratioOf(row) ?? null,
    target: row.target?.text ?? null,
    holds: row.target?.holds(row) ?? null,
  }));
}

/** A Markdown table (readable in a terminal and pasteable into docs/performance.md). */
export function renderTable(rows: readonly Row[]): string {
  const header = ['what', 'mock node', 'Anvil', 'mock vs Anvil', 'target', 'holds'];
  const lines = rows.map((row) => {
    const figure = (f: Figure | undefined) => (f === undefined ? '—' : fmt(f.value, row.unit) + (f.cpu ? ` (${f.cpu})` : ''));
    const ratio = ratioOf(row);
    const holds = row.target?.holds(row);
    return [
      `${row.section}: ${row.what}${row.note ? ` (${row.note})` : ''}`,
      figure(row.mock),
      row.anvil === undefined ? '—' : Number.isFinite(row.anvil.value) ? figure(row.anvil) : 'not installed',
      ratio === undefined ? '—' : `${fmt(ratio)}× ${ratio >= 1 ? 'better' : 'worse'}`,
      row.target?.text ?? '—',
      holds === undefined ? '—' : holds ? 'yes' : 'no',
    ];
  });
  const escape = (cell: string) => cell.replace(/\|/g, '\\|');
  return [header, header.map(() => '---'), ...lines].map((cells) => `| ${cells.map(escape).join(' | ')} |`).join('\n');
}
