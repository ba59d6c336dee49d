// The Engine's OTLP protobuf serializer (src/telemetry/otlp-protobuf.ts) against the SDK's own
// (ProtobufTraceSerializer of @opentelemetry/otlp-transformer) for the same real SDK spans: both
// byte strings are decoded field by field with the OTLP trace schema and must say the same thing,
// and the spans exercise every field the SDK can fill, so a field left out, misnumbered or
// mistyped on either side fails.
import { context, SpanKind, SpanStatusCode, trace, TraceFlags, type Attributes, type Link, type SpanContext } from '@opentelemetry/api';
import { TraceState } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { BinaryReader, BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { describe, expect, it } from 'vitest';
import { deserializeTraceResponse, EncodedSpans, serializeSpans } from '../../src/telemetry/otlp-protobuf.ts';

type FieldType = 'string' | 'bytes' | 'varint' | 'fixed64' | 'fixed32' | 'double' | { message: string };
/** The OTLP messages a trace export holds: field number → [name, type]. */
const SCHEMA: Record<string, Record<number, [string, FieldType]>> = {
  Request: { 1: ['resource_spans', { message: 'ResourceSpans' }] },
  ResourceSpans: { 1: ['resource', { message: 'Resource' }], 2: ['scope_spans', { message: 'ScopeSpans' }], 3: ['schema_url', 'string'] },
  Resource: { 1: ['attributes', { message: 'KeyValue' }], 2: ['dropped_attributes_count', 'varint'] },
  ScopeSpans: { 1: ['scope', { message: 'Scope' }], 2: ['spans', { message: 'Span' }], 3: ['schema_url', 'string'] },
  Scope: { 1: ['name', 'string'], 2: ['version', 'string'], 3: ['attributes', { message: 'KeyValue' }], 4: ['dropped_attributes_count', 'varint'] },
  Span: {
    1: ['trace_id', 'bytes'],
    2: ['span_id', 'bytes'],
    3: ['trace_state', 'string'],
    4: ['parent_span_id', 'bytes'],
    5: ['name', 'string'],
    6: ['kind', 'varint'],
    7: ['start_time_unix_nano', 'fixed64'],
    8: ['end_time_unix_nano', 'fixed64'],
    9: ['attributes', { message: 'KeyValue' }],
    10: ['dropped_attributes_count', 'varint'],
    11: ['events', { message: 'Event' }],
    12: ['dropped_events_count', 'varint'],
    13: ['links', { message: 'Link' }],
    14: ['dropped_links_count', 'varint'],
    15: ['status', { message: 'Status' }],
    16: ['flags', 'fixed32'],
  },
  Event: { 1: ['time_unix_nano', 'fixed64'], 2: ['name', 'string'], 3: ['attributes', { message: 'KeyValue' }], 4: ['dropped_attributes_count', 'varint'] },
  Link: { 1: ['trace_id', 'bytes'], 2: ['span_id', 'bytes'], 3: ['trace_state', 'string'], 4: ['attributes', { message: 'KeyValue' }], 5: ['dropped_attributes_count', 'varint'], 6: ['flags', 'fixed32'] },
  Status: { 2: ['message', 'string'], 3: ['code', 'varint'] },
  KeyValue: { 1: ['key', 'string'], 2: ['value', { message: 'AnyValue' }] },
  AnyValue: { 1: ['string_value', 'string'], 2: ['bool_value', 'varint'], 3: ['int_value', 'varint'], 4: ['double_value', 'double'], 5: ['array_value', { message: 'ArrayValue' }], 6: ['kvlist_value', { message: 'KeyValueList' }], 7: ['bytes_value', 'bytes'] },
  ArrayValue: { 1: ['values', { message: 'AnyValue' }] },
  KeyValueList: { 1: ['values', { message: 'KeyValue' }] },
};
const WIRE: Record<string, WireType> = { string: WireType.LengthDelimited, bytes: WireType.LengthDelimited, varint: WireType.Varint, fixed64: WireType.Bit64, fixed32: WireType.Bit32, double: WireType.Bit64 };

type Decoded = { [field: string]: unknown[] };

/**
 * A message as a collector reads it: each field by name, repeated or not, as a list; a field of an
 * unknown number or of the wrong wire type kept as `?<number>/<wire type>`. Scalars at their
 * default (0, '') count as absent, as in proto3, except in AnyValue, whose fields are a oneof.
 */
function decode(bytes: Uint8Array, message: string, seen: Set<string>): Decoded {
  const out: Decoded = {};
  const r = new BinaryReader(bytes);
  while (r.pos < r.len) {
    const [no, wire] = r.tag();
    const [name, type] = SCHEMA[message]![no] ?? [`?${no}`, 'unknown'];
    let value: unknown;
    if (typeof type === 'object' && wire === WireType.LengthDelimited) value = decode(r.bytes(), type.message, seen);
    else if (typeof type === 'string' && WIRE[type] === wire) {
      value = type === 'string' ? r.string() : type === 'bytes' ? Buffer.from(r.bytes()).toString('hex') : type === 'varint' ? r.int64() : type === 'fixed64' ? r.fixed64() : type === 'fixed32' ? r.fixed32() : r.double();
      if (message !== 'AnyValue' && (value === '' || value === 0 || value === 0n)) continue;
    } else {
      const start = r.pos;
      r.skip(wire);
      (out[`?${no}/${wire}`] ??= []).push(Buffer.from(bytes.subarray(start, r.pos)).toString('hex'));
      continue;
    }
    seen.add(`${message}.${name}`);
    (out[name] ??= []).push(value);
  }
  return out;
}

// Limits low enough that each kind of drop happens.
const spanLimits = { attributeCountLimit: 24, eventCountLimit: 2, linkCountLimit: 2, attributePerEventCountLimit: 2, attributePerLinkCountLimit: 2 };
const remote = (traceId: string, spanId: string, traceFlags: number, state?: string): SpanContext => ({
  traceId,
  spanId,
  traceFlags,
  isRemote: true,
  ...(state === undefined ? {} : { traceState: new TraceState(state) }),
});
const ATTRIBUTES: Attributes = {
  'svc.operation': 'demo-crm.contacts/get',
  'svc.empty': '',
  'svc.text.unicode': 'contacts — café ☕ 𝄞, longer than the thirty-two characters of an ASCII fast path',
  'svc.long': 'x'.repeat(300),
  'http.response.status_code': 200,
  'svc.zero': 0,
  'svc.negative': -42,
  'svc.large': 2 ** 60,
  'svc.beyond.int64': 2 ** 64,
  'svc.ratio': 0.25,
  'svc.negative.double': -1.5e-7,
  'svc.nan': Number.NaN,
  'svc.replayed': true,
  'svc.false': false,
  'svc.strings': ['a', '', 'ü'],
  'svc.ints': [1, -2, 2 ** 40],
  'svc.doubles': [0.5, 1e300],
  'svc.bools': [true, false],
  'svc.with.null': ['a', null, 'b'],
  'svc.empty.array': [],
};

/** Spans of two resources and three scopes, every kind, root and child, local and remote parents, error and ok, events, links and drops. */
function makeSpans(): ReadableSpan[] {
  const memory = new InMemorySpanExporter();
  const providers = [
    new BasicTracerProvider({ resource: resourceFromAttributes({ 'service.name': 'svc-engine', 'service.instance.id': 'a1', 'host.cpus': 2 }), spanLimits, spanProcessors: [new SimpleSpanProcessor(memory)] }),
    new BasicTracerProvider({ resource: resourceFromAttributes({ 'service.name': 'other' }, { schemaUrl: 'https://opentelemetry.io/schemas/1.30.0' }), spanProcessors: [new SimpleSpanProcessor(memory)] }),
  ];
  const engine = providers[0]!.getTracer('svc-engine');
  const versioned = providers[0]!.getTracer('svc-engine.calls', '1.2.3', { schemaUrl: 'https://opentelemetry.io/schemas/1.26.0' });
  const other = providers[1]!.getTracer('other-scope');

  const root = engine.startSpan('POST /v1/apps/{version_id}/executions', { kind: SpanKind.SERVER, attributes: ATTRIBUTES, startTime: [1_764_720_000, 999_999_999] });
  const inRoot = trace.setSpan(context.active(), root);
  const child = engine.startSpan('GET', { kind: SpanKind.CLIENT, attributes: { 'server.address': '127.0.0.1', 'server.port': 8080 } }, inRoot);
  child.setStatus({ code: SpanStatusCode.ERROR, message: 'provider timed out' });
  child.end([1_764_720_001, 5]);
  for (let i = 0; i < 26; i++) root.setAttribute(`svc.extra.${i}`, i); // past attributeCountLimit
  root.addEvent('first, dropped'); // past eventCountLimit, the oldest go
  root.addEvent('bare');
  root.addEvent('retry', { 'svc.attempts': 2, 'svc.status': 'retrying', 'svc.dropped': 'x' }, [1_764_720_000, 500]);
  root.setStatus({ code: SpanStatusCode.OK });
  root.end([4_200_000_000, 123_456_789]); // past 2116: the BigInt path

  const linked = remote('0af7651916cd43dd8448eb211c80319c', 'b7ad6b7169203331', TraceFlags.SAMPLED, 'vendor=abc,other=1');
  const fromRemote = remote('4bf92f3577b34da6a3ce929d0e0e4736', '00f067aa0ba902b7', TraceFlags.SAMPLED, 'congo=t61rcWkgMzE');
  const links: Link[] = [
    { context: linked }, // past linkCountLimit, the oldest go
    { context: remote('1af7651916cd43dd8448eb211c80319c', 'c7ad6b7169203331', TraceFlags.NONE) },
    { context: linked, attributes: { 'svc.a': 1, 'svc.b': 'two', 'svc.c': true } },
  ];
  const server = versioned.startSpan('svc.engine.v1.Engine/Execute', { kind: SpanKind.CONSUMER, links }, trace.setSpanContext(context.active(), fromRemote));
  server.setStatus({ code: SpanStatusCode.UNSET, message: '' });
  server.end();
  const local = engine.startSpan('session get_value', { kind: SpanKind.INTERNAL, root: true }, inRoot);
  local.end();
  const producer = other.startSpan('produce', { kind: SpanKind.PRODUCER });
  producer.updateName('');
  producer.end();
  // Back to the first resource and scope after another: still grouped with its own.
  const late = engine.startSpan('late', { kind: SpanKind.SERVER, startTime: new Date('2026-12-03T00:00:00.000Z') });
  late.end(new Date('2026-12-03T00:00:01.000Z'));
  return memory.getFinishedSpans();
}

const sdkBytes = (spans: ReadableSpan[]) => ProtobufTraceSerializer.serializeRequest(spans)!;

describe('OTLP protobuf serializer', () => {
  it('says of real SDK spans exactly what the SDK serializer says, over every field the SDK fills', () => {
    const spans = makeSpans();
    expect(spans.length).toBe(6);
    const seen = new Set<string>();
    const theirs = decode(sdkBytes(spans), 'Request', seen);
    const ours = decode(serializeSpans(spans), 'Request', new Set());
    expect(ours).toEqual(theirs);
    // Every field of the schema is in the spans, but those the SDK never fills: a scope's
    // attributes (the tracer API takes none) and a resource's dropped count (always 0).
    const unfilled = ['Scope.attributes', 'Scope.dropped_attributes_count', 'Resource.dropped_attributes_count', 'AnyValue.kvlist_value', 'AnyValue.bytes_value', 'KeyValueList.values'];
    const all = Object.entries(SCHEMA).flatMap(([message, fields]) => Object.values(fields).map(([name]) => `${message}.${name}`));
    expect(all.filter((f) => !seen.has(f) && !unfilled.includes(f))).toEqual([]);
    expect([...seen].filter((f) => f.startsWith('?'))).toEqual([]);
  });

  it('writes key-value lists, bytes and nulls as the SDK does (values the SDK can carry, though the Engine sets none)', () => {
    const spans = makeSpans().slice(0, 1);
    // ReadableSpan's attributes as an exporter gets them, with values the SDK's type allows through casts.
    const odd = { ...spans[0]!, spanContext: spans[0]!.spanContext, attributes: { map: { a: 1, b: ['x', { c: false }] }, raw: new Uint8Array([0, 1, 255]), none: null } as unknown as Attributes };
    const seen = new Set<string>();
    expect(decode(serializeSpans([odd]), 'Request', new Set())).toEqual(decode(sdkBytes([odd]), 'Request', seen));
    expect(['AnyValue.kvlist_value', 'AnyValue.bytes_value', 'KeyValueList.values'].filter((f) => !seen.has(f))).toEqual([]);
  });

  it('writes each batch of spans added as they end as the SDK writes that batch, its writers reused', () => {
    const spans = makeSpans();
    const batch = new EncodedSpans();
    for (const part of [spans.slice(0, 4), spans.slice(4), spans.slice(1, 2), []]) {
      for (const span of part) batch.add(span);
      expect(batch.count).toBe(part.length);
      expect(decode(batch.request(), 'Request', new Set())).toEqual(decode(sdkBytes(part), 'Request', new Set()));
    }
  });

  it('writes nothing for no spans, as the SDK', () => {
    expect(serializeSpans([])).toEqual(sdkBytes([]));
  });

  it("reads a collector's partial success", () => {
    const w = new BinaryWriter();
    w.tag(1, WireType.LengthDelimited).fork().tag(1, WireType.Varint).int64(3).tag(2, WireType.LengthDelimited).string('3 spans too old').tag(9, WireType.Varint).uint32(1).join();
    expect(deserializeTraceResponse(w.finish())).toEqual({ partialSuccess: { rejectedSpans: 3, errorMessage: '3 spans too old' } });
    expect(deserializeTraceResponse(new Uint8Array())).toEqual(ProtobufTraceSerializer.deserializeResponse(new Uint8Array()));
  });
});
