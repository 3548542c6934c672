import { TraceParent, formatTraceparent, parseTraceparent, traceContextFor } from './trace-context';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const VALID = `00-${TRACE_ID}-${PARENT_ID}-01`;

describe(parseTraceparent.name, () => {
  // W3C Trace Context §3.2.2 and §4.3; the first row is the specification's own example.
  const table: [string, unknown, TraceParent | undefined][] = [
    [
      'the spec example',
      VALID,
      { version: '00', traceId: TRACE_ID, parentId: PARENT_ID, flags: '01' },
    ],
    [
      'not sampled',
      `00-${TRACE_ID}-${PARENT_ID}-00`,
      { version: '00', traceId: TRACE_ID, parentId: PARENT_ID, flags: '00' },
    ],
    [
      'a higher version with more fields after a dash',
      `cc-${TRACE_ID}-${PARENT_ID}-09-what-the-future-holds`,
      { version: 'cc', traceId: TRACE_ID, parentId: PARENT_ID, flags: '09' },
    ],
    [
      'a higher version of exactly 55 characters',
      `01-${TRACE_ID}-${PARENT_ID}-01`,
      { version: '01', traceId: TRACE_ID, parentId: PARENT_ID, flags: '01' },
    ],
    ['absent', undefined, undefined],
    ['not a string (repeated header as array)', [VALID, VALID], undefined],
    ['empty', '', undefined],
    ['the forbidden version ff', `ff-${TRACE_ID}-${PARENT_ID}-01`, undefined],
    ['version 00 with trailing data', `${VALID}-extra`, undefined],
    ['version 00 with a trailing space', `${VALID} `, undefined],
    ['a higher version followed by no dash', `01-${TRACE_ID}-${PARENT_ID}-01x`, undefined],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${PARENT_ID}-01`, undefined],
    ['an all-zero parent id', `00-${TRACE_ID}-${'0'.repeat(16)}-01`, undefined],
    ['upper-case hex', VALID.toUpperCase(), undefined],
    ['a short trace id', `00-${TRACE_ID.slice(1)}-${PARENT_ID}-01`, undefined],
    ['a long parent id', `00-${TRACE_ID}-${PARENT_ID}0-01`, undefined],
    ['a non-hex character', `00-${TRACE_ID.slice(0, 31)}g-${PARENT_ID}-01`, undefined],
    ['a one-digit version', `0-${TRACE_ID}-${PARENT_ID}-01`, undefined],
    ['underscores for dashes', VALID.replace(/-/g, '_'), undefined],
    ['two headers joined by a comma', `${VALID}, ${VALID}`, undefined],
    ['a log-injection attempt', `00-${TRACE_ID}-${PARENT_ID}-01"}{"level":60`, undefined],
  ];
  it.each(table)('%s', (_name, header, expected) => {
    expect(parseTraceparent(header)).toEqual(expected);
  });
});

describe(traceContextFor.name, () => {
  it('continues a valid trace with a new span, keeping only the sampled flag', () => {
    const incoming = parseTraceparent(`cc-${TRACE_ID}-${PARENT_ID}-ff-x`);
    const trace = traceContextFor(incoming);
    expect(trace).toEqual({
      traceId: TRACE_ID,
      spanId: expect.stringMatching(/^[0-9a-f]{16}$/),
      parentId: PARENT_ID,
      flags: '01',
    });
    expect(trace.spanId).not.toBe(PARENT_ID);
    expect(formatTraceparent(trace)).toBe(`00-${TRACE_ID}-${trace.spanId}-01`);
  });

  it('starts a new, unsampled trace when there is none; ids are random and well-formed', () => {
    const traces = Array.from({ length: 500 }, () => traceContextFor(undefined));
    for (const trace of traces) {
      expect(trace.parentId).toBeUndefined();
      expect(parseTraceparent(formatTraceparent(trace))).toEqual({
        version: '00',
        traceId: trace.traceId,
        parentId: trace.spanId,
        flags: '00',
      });
    }
    expect(new Set(traces.map((t) => t.traceId)).size).toBe(traces.length);
    expect(new Set(traces.map((t) => t.spanId)).size).toBe(traces.length);
  });
});
