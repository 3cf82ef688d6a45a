// jsonc-parser (VS Code's own JSON scanner and parser) through its ES module build: its UMD main
// loads its parts with a dynamic require that a bundle cannot resolve.
export * from 'jsonc-parser/lib/esm/main.js';
