// The Date header's value made by arithmetic (mock-node/rpc/httpDate.ts) is Date's toUTCString,
// at the edges of months, leap days, century years and eras, and at random instants.
import assert from 'node:assert/strict';
import { httpDate } from '../../../mock-node/rpc/httpDate';

describe('httpDate (the lean path\'s Date header)', () => {
  it('writes what Date#toUTCString writes at calendar edges', () => {
    const edges = ['1970-01-01T00:00:00Z', '1999-12-31T23:59:59.999Z', '2000-02-29T12:00:00Z', '2000-03-01T00:00:00Z',
      '2024-02-29T23:59:59Z', '2100-02-28T23:59:59Z', '2100-03-01T00:00:00Z', '2400-02-29T00:00:00Z', '1900-03-01T00:00:00Z',
      '1601-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z'].map((text) => Date.parse(text));
    for (const ms of edges) assert.equal(httpDate(ms), new Date(ms).toUTCString(), new Date(ms).toISOString());
  });

  it('writes what Date#toUTCString writes at 100,000 random instants of years 1000 to 9999', () => {
    const from = Date.parse('1000-01-01T00:00:00Z');
    const to = Date.parse('9999-12-31T23:59:59.999Z');
    for (let i = 0; i < 100_000; i++) {
      const ms = from + Math.floor(Math.random() * (to - from));
      assert.equal(httpDate(ms), new Date(ms).toUTCString(), String(ms));
    }
  });
});
