// `npm run demo` is part of the test run: the whole seed flow against a freshly started CLI node,
// every printed claim checked by the demo itself; here its JSON lines are read back.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { ensureCliBuilt, ROOT } from '../helpers/cli';
import { Reporter } from '../../examples/demo/report';

describe('npm run demo', function () {
  this.timeout(180_000);
  before(ensureCliBuilt);

  it('walks the seed flow and every step behaves as printed (--json)', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(ROOT, 'examples', 'demo', 'demo.ts'), '--json'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    const lines = stdout.trim().split('\n').map((line) => JSON.parse(line));
    const steps = lines.filter((l) => !l.summary);
    for (const step of steps) console.log(`      ${step.ok ? 'ok  ' : 'FAIL'} ${step.step}. ${step.title} (${step.ms} ms)${step.error ? `: ${step.error}` : ''}`);
    assert.equal(code, 0, `demo exited ${code}\n${stderr}`);
    assert.equal(steps.length, 10);
    assert.ok(steps.every((s) => s.ok && s.checks.length > 0 && s.checks.every((c: { ok: boolean }) => c.ok)));
    assert.deepEqual(lines.at(-1), { summary: true, steps: 10, failed: 0 });
    const titles = steps.map((s) => s.title).join('\n');
    for (const topic of [/pending read/, /HTTP 403/, /signs/, /captures/, /second capture/, /cancels/, /expired/, /blocklisted/, /removed: true/]) assert.match(titles, topic);
  });

  it('a claim that does not hold fails its step, the later steps still run, and the summary says so', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => { text += chunk.toString(); });
    const report = new Reporter(true, out as unknown as NodeJS.WriteStream);
    await report.run('holds', async (step) => step.check('one is one', 1 === 1));
    await report.run('does not hold', async (step) => { step.check('one is two', 1 === 2 as number); step.say('never printed'); });
    await report.run('throws', async () => { throw new Error('the node went away'); });
    assert.equal(report.summary(), false);
    const lines = text.trim().split('\n').map((line) => JSON.parse(line));
    assert.deepEqual(lines.map((l) => l.ok ?? l.failed), [true, false, false, 2]);
    assert.equal(lines[1].error, 'check failed: one is two');
    assert.deepEqual(lines[1].lines, []);
    assert.equal(lines[2].error, 'the node went away');
  });
});
