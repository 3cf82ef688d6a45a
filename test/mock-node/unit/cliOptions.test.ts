// The command line comes from one table (CLI_FLAGS in mock-node/options.ts): --help lists every
// flag with the default startMockNode uses, and each flag sets exactly its option.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { helpText, parseCommandLine } from '../../../mock-node/cli';
import { CLI_FLAGS, defaultAt, OptionError, resolveOptions } from '../../../mock-node/options';

/** A value each kind of flag takes, and the option value it gives. */
const SAMPLE: Record<string, [string | undefined, unknown]> = {
  integer: ['7', 7], text: ['x', 'x'], eth: ['1.5', 1_500_000_000_000_000_000n], tokenUnits: ['12.5', 12_500_000n], on: [undefined, true], off: [undefined, false],
};

describe('the command-line option table', () => {
  it('--help lists every flag, its help, and the default the node starts with', () => {
    const help = helpText();
    for (const flag of CLI_FLAGS) {
      const line = help.split('\n').find((l) => l.trimStart().startsWith(`--${flag.flag} `) || l.trim() === `--${flag.flag}` || l.trimStart().startsWith(`--${flag.flag}  `));
      assert.ok(line, `--${flag.flag} listed`);
      assert.ok(line.includes(flag.help), `--${flag.flag}: its help`);
      const value = defaultAt(flag.target);
      if (flag.shownDefault) assert.ok(line.includes(`(default ${flag.shownDefault})`), `--${flag.flag}: shown default`);
      else if (['integer', 'text'].includes(flag.kind) && value !== undefined) assert.ok(line.includes(`(default ${String(value)})`), `--${flag.flag}: default ${String(value)}`);
    }
    assert.ok(help.includes('--config <file.json>') && help.includes('-h, --help'));
  });

  it('each flag sets its option and nothing else', () => {
    for (const flag of CLI_FLAGS.filter((f) => f.kind in SAMPLE)) {
      const [raw, expected] = SAMPLE[flag.kind];
      const { options } = parseCommandLine(raw === undefined ? [`--${flag.flag}`] : [`--${flag.flag}`, raw]);
      const path = flag.target.split('.');
      let value: unknown = options;
      for (const key of path) value = (value as Record<string, unknown>)[key];
      assert.deepEqual(value, expected, `--${flag.flag} -> ${flag.target}`);
      assert.deepEqual(Object.keys(options), [path[0]], `--${flag.flag} sets ${path[0]} only`);
    }
  });

  it('flags win over the --config file and keep its other fields; the result is what startMockNode validates', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-options-'));
    const config = join(dir, 'node.json');
    writeFileSync(config, JSON.stringify({ port: 1, token: { name: 'Kept', balance: '5' }, limits: { public: { maxBatch: 9 } } }));
    const { options } = parseCommandLine(['--config', config, '--port', '0', '--token-balance', '2', '--dedicated-max-batch', '4', '--no-auto']);
    assert.deepEqual(options, { port: 0, token: { name: 'Kept', balance: 2_000_000n }, limits: { public: { maxBatch: 9 }, dedicated: { maxBatch: 4 } }, auto: false });
    const resolved = resolveOptions(options);
    assert.equal(resolved.token.name, 'Kept');
    assert.equal(resolved.limits.dedicated.maxBatch, 4);
    assert.throws(() => parseCommandLine(['--port', 'eighty']), (error: unknown) => error instanceof OptionError && /--port takes a whole number/.test(error.message));
    assert.throws(() => resolveOptions(parseCommandLine(['--pending-identity', 'maybe']).options), OptionError);
  });
});
