// Start-up: wall time from spawning the process to its first eth_chainId answer, median of 7, with
// the CPU the process had used by then: the CLI bundle on Node, the single executable (when
// `npm run build:sea` has built it) and Anvil. Two reference rows, not the mock node, give the
// runtime's own floor: a bare Node server (node:net, one fixed HTTP reply), and the same server as
// an empty single executable. Each round starts every kind once, in turn (the order reversed every
// other round), so a change in the machine's speed over the section meets every row alike.
//
// NODE_EXTRA_CA_CERTS: when it is set, Node reads and parses that certificate file at every start,
// before any of the node's own code (on this project's machines it names the system bundle of 144
// certificates: 40 % of the instructions of a bare `node -e 0`). The mock node makes no TLS
// connection, so its rows start it without the variable, and the CLI row's note gives its time with
// the variable as set here too. Anvil does not read it.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeSingleExecutable } from '../../../mock-node/package/seaExecutable.mjs';
import { MOCK_CLI, timeToFirstAnswer } from '../processes';
import { freePort, median } from '../rpcClient';
import { fmt, type Row } from '../table';
import { NOT_INSTALLED, size, type BenchConfig } from './config';
import { NODE_VERSION } from '../../vscode/toolVersions';

interface Start {
  wallMs: number;
  cpuMs: number;
}

/** One way of starting a server: its command, its arguments for a port, its environment. */
interface Starter {
  command: string;
  args: (port: number) => string[];
  env?: NodeJS.ProcessEnv;
}

/**
 * The median start of each named starter over `runs` rounds; each round starts every starter
 * once, in turn, the order reversed every other round.
 */
async function medianStarts<Name extends string>(runs: number, starters: Partial<Record<Name, Starter>>): Promise<Partial<Record<Name, Start>>> {
  const named = Object.entries(starters) as [Name, Starter][];
  const starts = new Map<Name, Start[]>(named.map(([name]) => [name, []]));
  for (let round = 0; round < runs; round++) {
    const order = round % 2 === 0 ? named : [...named].reverse();
    for (const [name, { command, args, env }] of order) {
      const port = await freePort();
      starts.get(name)!.push(await timeToFirstAnswer(command, args(port), port, env ?? process.env));
    }
  }
  const medians: Partial<Record<Name, Start>> = {};
  for (const [name, list] of starts) medians[name] = { wallMs: median(list.map((s) => s.wallMs)), cpuMs: median(list.map((s) => s.cpuMs)) };
  return medians;
}

const SEA = join(__dirname, '..', '..', '..', 'dist', process.platform === 'win32' ? 'chain-mock-node.exe' : 'chain-mock-node');

/** The same executable built from the newest Node LTS (`npm run build:sea:lts`), when it has been built. */
const SEA_LTS = join(__dirname, '..', '..', '..', 'dist', process.platform === 'win32' ? 'chain-mock-node-lts.exe' : 'chain-mock-node-lts');

const CA_VARIABLE = 'NODE_EXTRA_CA_CERTS';
const withoutCaFile: NodeJS.ProcessEnv = { ...process.env, [CA_VARIABLE]: undefined };
delete withoutCaFile[CA_VARIABLE];

/**
 * The runtime's own floor, for reference: a bare Node server (node:net alone: no HTTP parser, no
 * framework, no chain) that answers every request it reads (by its Content-Length) with one fixed
 * HTTP reply holding an eth_chainId result, started and probed the same way. node:http would add
 * its own start (about 6 ms here), which a server need not pay before its first answer.
 */
const BARE_SERVER = `const port = Number(process.argv[process.argv.indexOf('--port') + 1]);
const body = '{"jsonrpc":"2.0","id":1,"result":"0x7a69"}';
const reply = 'HTTP/1.1 200 OK\\r\\ncontent-type: application/json\\r\\ncontent-length: ' + body.length + '\\r\\n\\r\\n' + body;
require('node:net').createServer((socket) => {
  let text = '';
  socket.on('error', () => {});
  socket.on('data', (chunk) => {
    text += chunk.toString('latin1');
    for (let end = text.indexOf('\\r\\n\\r\\n'); end >= 0; end = text.indexOf('\\r\\n\\r\\n')) {
      const length = Number(/content-length: *(\\d+)/i.exec(text.slice(0, end))?.[1] ?? 0);
      if (text.length < end + 4 + length) return;
      text = text.slice(end + 4 + length);
      socket.write(reply);
    }
  });
}).listen(port, '127.0.0.1');
`;

/** The bare server's file, written in `dir`. */
function bareServerFile(dir: string): string {
  const file = join(dir, 'bare-server.js');
  writeFileSync(file, BARE_SERVER);
  return file;
}

/**
 * The same bare server as a single executable of this Node (no startup snapshot: for a program
 * this small one only adds its deserialisation), made in `dir` the way `npm run build:sea` makes
 * the mock node's: the floor of any single executable here.
 */
function emptySingleExecutable(dir: string, main: string): string {
  return makeSingleExecutable({ main, useSnapshot: false }, join(dir, 'bare-server'), { stdio: 'pipe' });
}

const cpuText = (start: Start) => (Number.isFinite(start.cpuMs) ? `${fmt(start.cpuMs)} ms CPU` : undefined);

export async function startup(config: BenchConfig): Promise<Row[]> {
  const runs = size(config, 7, 2);
  const cliArgs = (port: number) => [MOCK_CLI, '--port', String(port), '--quiet'];
  const caFile = process.env[CA_VARIABLE];
  const binary = config.anvil;
  const dir = mkdtempSync(join(tmpdir(), 'bench-startup-'));
  type Kind = 'mock' | 'mockWithCaFile' | 'anvil' | 'bare' | 'sea' | 'seaLts' | 'emptySea';
  let starts: Partial<Record<Kind, Start>>;
  try {
    const bareFile = bareServerFile(dir);
    const starters: Partial<Record<Kind, Starter>> = {
      mock: { command: process.execPath, args: cliArgs, env: withoutCaFile },
      bare: { command: process.execPath, args: (port) => [bareFile, '--port', String(port)], env: withoutCaFile },
    };
    if (caFile) starters.mockWithCaFile = { command: process.execPath, args: cliArgs };
    if (binary) starters.anvil = { command: binary, args: (port) => ['--port', String(port), '--silent'] };
    if (existsSync(SEA)) {
      starters.sea = { command: SEA, args: (port) => ['--port', String(port), '--quiet'], env: withoutCaFile };
      // Only beside the mock node's executable: `npm run build:sea` has shown this machine can make one.
      starters.emptySea = { command: emptySingleExecutable(dir, bareFile), args: (port) => ['--port', String(port)], env: withoutCaFile };
      if (existsSync(SEA_LTS)) starters.seaLts = { command: SEA_LTS, args: (port) => ['--port', String(port), '--quiet'], env: withoutCaFile };
    }
    starts = await medianStarts(runs, starters);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const { mockWithCaFile, anvil, sea, seaLts, emptySea } = starts;
  const mock = starts.mock!;
  const bare = starts.bare!;
  const anvilFigure = anvil ? { value: anvil.wallMs, cpu: cpuText(anvil) } : NOT_INSTALLED;
  const caNote = caFile ? `${CA_VARIABLE} unset for the node` : undefined;
  const seaRow: Row[] = sea === undefined ? [] : [{
    section: 'start-up',
    what: `the single executable (dist/chain-mock-node), process start to first eth_chainId answer (median of ${runs})`,
    unit: 'ms',
    mock: { value: sea.wallMs, cpu: cpuText(sea) },
    anvil: anvilFigure,
    better: 'lower',
    target: { text: '≤ Anvil', holds: (row) => (row.anvil && Number.isFinite(row.anvil.value) ? row.mock.value <= row.anvil.value : undefined) },
    note: caNote,
  }, ...(seaLts === undefined ? [] : [{
    section: 'start-up',
    what: `the single executable built from Node ${NODE_VERSION} (dist/chain-mock-node-lts, npm run build:sea:lts), process start to first eth_chainId answer (median of ${runs})`,
    unit: 'ms',
    mock: { value: seaLts.wallMs, cpu: cpuText(seaLts) },
    anvil: anvilFigure,
    better: 'lower' as const,
    // npm run build:sea builds from the newest LTS once it starts no slower than this Node's build.
    target: { text: `≤ the ${process.version} build (${fmt(sea.wallMs)} ms, ${fmt(sea.cpuMs)} ms CPU)`, holds: (row: Row) => row.mock.value <= sea.wallMs },
    note: caNote,
  }]), {
    section: 'start-up',
    what: `for reference, not the mock node: the bare Node server below as a single executable (Node's SEA, no snapshot), process start to first answer (median of ${runs})`,
    unit: 'ms',
    mock: { value: emptySea!.wallMs, cpu: cpuText(emptySea!) },
    anvil: anvilFigure,
    better: 'lower',
    note: 'the floor of any single executable on this Node and machine',
  }];
  return [
    ...seaRow,
    {
      section: 'start-up',
      what: `process start to first eth_chainId answer (median of ${runs})`,
      unit: 'ms',
      mock: { value: mock.wallMs, cpu: cpuText(mock) },
      anvil: anvilFigure,
      better: 'lower',
      target: { text: '≤ 100 ms', holds: (row) => row.mock.value <= 100 },
      note: mockWithCaFile ? `${caNote}; with ${CA_VARIABLE}=${caFile} as set here: ${fmt(mockWithCaFile.wallMs)} ms, ${fmt(mockWithCaFile.cpuMs)} ms CPU` : undefined,
    },
    {
      section: 'start-up',
      what: `for reference, not the mock node: a bare Node server (node:net alone, one fixed HTTP reply), process start to first answer (median of ${runs})`,
      unit: 'ms',
      mock: { value: bare.wallMs, cpu: cpuText(bare) },
      anvil: anvilFigure,
      better: 'lower',
      note: 'the floor of any server on this Node and machine',
    },
  ];
}
