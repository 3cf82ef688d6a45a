// The names of the mock node's two endpoints in the explorer: "Mock node (public)" and
// "Mock node (dedicated)", or with a chain preset the chain's name, "Base (mock)" and
// "Base (mock, dedicated)". Pure.

export function mockEndpointNames(chainLabel: string | undefined): { public: string; dedicated: string } {
  if (chainLabel === undefined) return { public: 'Mock node (public)', dedicated: 'Mock node (dedicated)' };
  return { public: `${chainLabel} (mock)`, dedicated: `${chainLabel} (mock, dedicated)` };
}
