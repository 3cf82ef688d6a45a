/** Types of codeCache.mjs's exports the tests use (they are TypeScript). */
export const LAZY_BUNDLE_FILES: readonly string[];
export const SEA_BUNDLE_ASSET: string;
export const SEA_CACHE_ASSET: string;
export function cacheHeader(build: string): string;
export function buildIdOf(wrapped: string): string;
export function seaLoader(wrappedBundle: string): string;
