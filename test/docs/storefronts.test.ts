// The three storefront pages are the ones shipped: the VSIX's README (the extension alone, what the
// Marketplace and Open VSX show) is the one `vsce ls` lists under the package script's
// --readme-path, its pictures resolve once vsce makes their links absolute, and it names every
// command and setting; the CLI's --help ends with a link to the docs. (The npm package's README is
// checked with `npm pack --dry-run` in test/package/artefacts.test.ts, where the package is staged;
// the single executable's --help there too.)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HELP_EPILOGUE } from '../../mock-node/cli';
import { ROOT } from './docFiles';

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  contributes: { commands: { title: string }[]; configuration: { properties: Record<string, unknown> } };
};

/** The value of `--name <value>` in a command line. */
function optionOf(commandLine: string, name: string): string | undefined {
  return new RegExp(`--${name}\\s+(\\S+)`).exec(commandLine)?.[1];
}

/** The relative image links of a Markdown page. */
function relativeImages(markdown: string): string[] {
  return [...markdown.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((match) => match[1]).filter((link) => !/^[a-z]+:/i.test(link));
}

/** The README names of a `vsce ls` listing that a package would ship as its README, other than `readme`. */
function stray(listing: string[], readme: string): string[] {
  return listing.filter((file) => /(^|\/)readme\.md$/i.test(file) && file !== readme);
}

describe('docs: the storefront pages are the ones shipped', function () {
  this.timeout(120_000);
  const packageScript = manifest.scripts.package;
  const readmePath = optionOf(packageScript, 'readme-path');
  const imagesBase = optionOf(packageScript, 'baseImagesUrl');

  it('npm run package names the extension\'s own README and where its pictures live', () => {
    assert.equal(readmePath, 'extension/README.md');
    assert.ok(imagesBase, `npm run package gives vsce no --baseImagesUrl: ${packageScript}`);
  });

  it('vsce ls lists the extension\'s README and no other (the repository\'s README stays out of the VSIX)', () => {
    const listing = execFileSync(process.execPath, [join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce'), 'ls', '--no-dependencies', '--readme-path', readmePath!], { cwd: ROOT, encoding: 'utf8' })
      .split('\n').map((line) => line.trim()).filter(Boolean);
    assert.ok(listing.includes('package.json') && listing.includes('dist/extension.js'), `vsce ls listed:\n${listing.join('\n')}`);
    assert.ok(listing.includes(readmePath!), `vsce ls does not list ${readmePath}`);
    assert.deepEqual(stray(listing, readmePath!), []);
  });

  it('the README check fails on a listing that also ships the repository\'s README', () => {
    assert.deepEqual(stray(['package.json', 'README.md', 'extension/README.md', 'docs/readme.md'], 'extension/README.md'), ['README.md', 'docs/readme.md']);
  });

  it('every picture of the extension\'s README is a PNG of the repository, and still is once vsce makes its link absolute', () => {
    const readme = readFileSync(join(ROOT, readmePath!), 'utf8');
    const images = relativeImages(readme);
    assert.ok(images.length >= 5, 'the Marketplace page should show the extension in pictures');
    for (const image of images) {
      const inRepository = join(ROOT, 'extension', image);
      assert.ok(existsSync(inRepository), `${image} does not exist`);
      // vsce prepends --baseImagesUrl to a relative image link; the browser resolves the dot segments.
      const url = new URL(imagesBase! + image);
      const repositoryPath = url.pathname.replace(/^\/[^/]+\/[^/]+\/raw\/HEAD\//, '');
      assert.equal(join(ROOT, repositoryPath), inRepository, `${image} becomes ${url.href}`);
      assert.ok(/\.(png|jpe?g|gif)$/i.test(image), `${image}: vsce refuses SVG pictures in a README`);
    }
  });

  it('the extension\'s README names every command and every setting the extension contributes', () => {
    const readme = readFileSync(join(ROOT, readmePath!), 'utf8');
    const missingCommands = manifest.contributes.commands.map((command) => command.title).filter((title) => !readme.includes(title));
    assert.deepEqual(missingCommands, [], 'commands missing from extension/README.md');
    const missingSettings = Object.keys(manifest.contributes.configuration.properties).filter((key) => !readme.includes(`\`${key}\``));
    assert.deepEqual(missingSettings, [], 'settings missing from extension/README.md');
  });

  it('the CLI\'s --help ends with a link to the docs, and the page it names exists', () => {
    const help = execFileSync(process.execPath, [join(ROOT, 'dist', 'mock-node.js'), '--help']).toString();
    assert.ok(help.trimEnd().endsWith(HELP_EPILOGUE.join('\n')), `--help ends:\n${help.trimEnd().split('\n').slice(-4).join('\n')}`);
    for (const link of HELP_EPILOGUE.join('\n').matchAll(/\/(?:blob|tree)\/main\/(\S+)/g)) assert.ok(existsSync(join(ROOT, link[1])), `--help links to ${link[1]}, which does not exist`);
  });
});
