// Whether a URL's host is this machine: the fork's default for waiting at misses (ForkOptions.waitAtMisses).

/** localhost, 127.0.0.0/8 or ::1 (a URL brackets an IPv6 host): an upstream on this machine. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === '::1' || host === '0:0:0:0:0:0:0:1';
}
