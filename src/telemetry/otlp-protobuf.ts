// OTLP/HTTP protobuf export of spans: an ExportTraceServiceRequest written straight from the SDK's
// ReadableSpans with @bufbuild/protobuf's BinaryWriter (field numbers of opentelemetry-proto's
// trace/v1/trace.proto, common/v1/common.proto and resource/v1/resource.proto), into the SDK's own
// HTTP export path (transport, retries, timeout, compression, headers, concurrency limit). Why not
// the SDK's serializer: docs/architecture.md ("Traces"). test/telemetry/otlp-protobuf.test.ts
// decodes its bytes against the SDK's for the same spans.
import type { Attributes, HrTime, Link } from '@opentelemetry/api';
import type { IOtlpExportDelegate, OTLPExporterNodeConfigBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';
import { BinaryReader, BinaryWriter, WireType } from '@bufbuild/protobuf/wire';

/** ExportTraceServiceResponse (collector/trace/v1/trace_service.proto), as the SDK's response handler reads it. */
export interface TraceExportResponse {
  partialSuccess?: { rejectedSpans?: number; errorMessage?: string };
}

const { LengthDelimited: LEN, Varint: VARINT, Bit64: I64, Bit32: I32 } = WireType;

/** Span.flags: the W3C trace flags, and that the parent's remoteness is known (bit 8) and what it is (bit 9). */
const flagsOf = (traceFlags: number, remote: boolean | undefined): number => (traceFlags & 0xff) | 0x100 | (remote ? 0x200 : 0);

/** A trace or span ID's 16 or 8 bytes from its hex, into buffers reused (a span's and its parent's trace IDs are one string: decoded once). */
const TRACE_ID = new Uint8Array(16);
const SPAN_ID = new Uint8Array(8);
let lastTraceId = '';
function writeId(w: BinaryWriter, field: number, hex: string): void {
  const out = hex.length === 32 ? TRACE_ID : hex.length === 16 ? SPAN_ID : new Uint8Array(hex.length >> 1);
  if (out !== TRACE_ID || hex !== lastTraceId) {
    for (let i = 0; i < out.length; i++) out[i] = (nibble(hex.charCodeAt(2 * i)) << 4) | nibble(hex.charCodeAt(2 * i + 1));
    if (out === TRACE_ID) lastTraceId = hex;
  }
  w.tag(field, LEN).bytes(out);
}
const nibble = (c: number): number => (c <= 57 ? c - 48 : (c | 0x20) - 87);

/**
 * A time as fixed64 nanoseconds, in two 32-bit halves: seconds × 10⁹ passes 2⁵³, so it is taken
 * as (seconds × 5⁹) × 2⁹, exact in a double up to the year 2116 (BigInt past that).
 */
function writeTime(w: BinaryWriter, field: number, [seconds, nanos]: HrTime): void {
  w.tag(field, I64);
  const m = seconds * 1_953_125;
  if (m > Number.MAX_SAFE_INTEGER) {
    w.fixed64(BigInt(seconds) * 1_000_000_000n + BigInt(nanos));
    return;
  }
  const mLow = m % 0x800000; // the low 23 bits of m, which × 2⁹ fill the low 32 bits
  const low = mLow * 512 + nanos;
  const carry = Math.floor(low / 0x100000000);
  w.fixed32(low - carry * 0x100000000).fixed32((m - mLow) / 0x800000 + carry);
}

/** AnyValue: string 1, bool 2, int64 3, double 4, array 5, key-value list 6, bytes 7; null an empty AnyValue. */
function writeValue(w: BinaryWriter, value: unknown): void {
  switch (typeof value) {
    case 'string':
      w.tag(1, LEN).string(value);
      return;
    case 'boolean':
      w.tag(2, VARINT).bool(value);
      return;
    case 'number':
      if (Number.isInteger(value) && value >= -(2 ** 63) && value < 2 ** 63) {
        w.tag(3, VARINT);
        if (value >= 0 && value <= 0xffffffff) w.uint32(value);
        else w.int64(BigInt(value));
      } else w.tag(4, I64).double(value);
      return;
  }
  if (value instanceof Uint8Array) w.tag(7, LEN).bytes(value);
  else if (Array.isArray(value)) {
    w.tag(5, LEN).fork();
    for (const item of value as unknown[]) {
      w.tag(1, LEN).fork();
      writeValue(w, item);
      w.join();
    }
    w.join();
  } else if (typeof value === 'object' && value !== null) {
    w.tag(6, LEN).fork();
    writeAttributes(w, 1, value as Attributes);
    w.join();
  }
}

/**
 * KeyValue messages already encoded, by key and value: the Engine's spans repeat theirs (methods,
 * routes, operations, hosts, statuses), so most are copied, not written. Bounded: scalars only,
 * strings up to 128 characters, and past MAX_ENCODED entries the rest are written each time.
 */
const encoded = new Map<string, Map<unknown, Uint8Array>>();
const MAX_ENCODED = 2048;
let encodedCount = 0;

function keyValue(key: string, value: unknown): Uint8Array {
  const w = new BinaryWriter().tag(1, LEN).string(key).tag(2, LEN).fork();
  writeValue(w, value);
  return w.join().finish();
}

/** A span's name, its UTF-8 kept as attributes are (names are routes and methods: a fixed set). */
const names = new Map<string, Uint8Array>();
function writeName(w: BinaryWriter, name: string): void {
  let bytes = names.get(name);
  if (bytes === undefined && encodedCount < MAX_ENCODED && name.length <= 128) {
    names.set(name, (bytes = Buffer.from(name, 'utf8')));
    encodedCount++;
  }
  if (bytes !== undefined) {
    if (bytes.length > 0) w.tag(5, LEN).bytes(bytes);
  } else writeString(w, 5, name);
}

/** Repeated KeyValue (key 1, value 2) under `field`. */
function writeAttributes(w: BinaryWriter, field: number, attributes: Attributes): void {
  for (const key in attributes) {
    if (!Object.hasOwn(attributes, key)) continue;
    const value = attributes[key];
    let byValue = encoded.get(key);
    let bytes = byValue?.get(value);
    if (bytes === undefined && encodedCount < MAX_ENCODED && (typeof value === 'number' || typeof value === 'boolean' || (typeof value === 'string' && value.length <= 128))) {
      if (byValue === undefined) encoded.set(key, (byValue = new Map()));
      byValue.set(value, (bytes = keyValue(key, value)));
      encodedCount++;
    }
    if (bytes !== undefined) w.tag(field, LEN).bytes(bytes);
    else {
      w.tag(field, LEN).fork().tag(1, LEN).string(key).tag(2, LEN).fork();
      writeValue(w, value);
      w.join().join();
    }
  }
}

/** A count field, left out when 0 (proto3's default). */
function writeCount(w: BinaryWriter, field: number, count: number | undefined): void {
  if (count) w.tag(field, VARINT).uint32(count);
}

function writeString(w: BinaryWriter, field: number, text: string | undefined): void {
  if (text) w.tag(field, LEN).string(text);
}

/** Span.Event: time 1, name 2, attributes 3, dropped_attributes_count 4. */
function writeEvent(w: BinaryWriter, event: TimedEvent): void {
  w.tag(11, LEN).fork();
  writeTime(w, 1, event.time);
  writeString(w, 2, event.name);
  if (event.attributes) writeAttributes(w, 3, event.attributes);
  writeCount(w, 4, event.droppedAttributesCount);
  w.join();
}

/** Span.Link: trace_id 1, span_id 2, trace_state 3, attributes 4, dropped_attributes_count 5, flags 6. */
function writeLink(w: BinaryWriter, link: Link): void {
  const { traceId, spanId, traceState, traceFlags, isRemote } = link.context;
  w.tag(13, LEN).fork();
  writeId(w, 1, traceId);
  writeId(w, 2, spanId);
  writeString(w, 3, traceState?.serialize());
  if (link.attributes) writeAttributes(w, 4, link.attributes);
  writeCount(w, 5, link.droppedAttributesCount);
  w.tag(6, I32).fixed32(flagsOf(traceFlags, isRemote));
  w.join();
}

/**
 * Span: trace_id 1, span_id 2, trace_state 3, parent_span_id 4, name 5, kind 6, start 7, end 8,
 * attributes 9, dropped_attributes_count 10, events 11, dropped_events_count 12, links 13,
 * dropped_links_count 14, status 15 (message 2, code 3), flags 16.
 */
function writeSpan(w: BinaryWriter, span: ReadableSpan): void {
  const { traceId, spanId, traceState, traceFlags } = span.spanContext();
  const parent = span.parentSpanContext;
  w.tag(2, LEN).fork();
  writeId(w, 1, traceId);
  writeId(w, 2, spanId);
  writeString(w, 3, traceState?.serialize());
  if (parent?.spanId) writeId(w, 4, parent.spanId);
  writeName(w, span.name);
  w.tag(6, VARINT).uint32(span.kind + 1); // the API's kinds start at 0, OTLP's at 1 (0 is unspecified)
  writeTime(w, 7, span.startTime);
  writeTime(w, 8, span.endTime);
  writeAttributes(w, 9, span.attributes);
  writeCount(w, 10, span.droppedAttributesCount);
  for (const event of span.events) writeEvent(w, event);
  writeCount(w, 12, span.droppedEventsCount);
  for (const link of span.links) writeLink(w, link);
  writeCount(w, 14, span.droppedLinksCount);
  const { code, message } = span.status;
  if (code || message) {
    w.tag(15, LEN).fork();
    writeString(w, 2, message);
    if (code) w.tag(3, VARINT).uint32(code);
    w.join();
  } else w.tag(15, LEN).uint32(0); // an empty Status, as the SDK sends
  w.tag(16, I32).fixed32(flagsOf(traceFlags, parent?.isRemote));
  w.join();
}

type Scope = ReadableSpan['instrumentationScope'] & { attributes?: Attributes; droppedAttributesCount?: number };

/** ScopeSpans: scope 1 (name 1, version 2, attributes 3, dropped_attributes_count 4), spans 2 (already written), schema_url 3. */
function writeScopeSpans(w: BinaryWriter, scope: Scope, spans: Uint8Array): void {
  w.tag(2, LEN).fork().tag(1, LEN).fork();
  writeString(w, 1, scope.name);
  writeString(w, 2, scope.version);
  if (scope.attributes) writeAttributes(w, 3, scope.attributes);
  writeCount(w, 4, scope.droppedAttributesCount);
  w.join();
  w.raw(spans);
  writeString(w, 3, scope.schemaUrl);
  w.join();
}

/**
 * Spans written the moment they are added, by resource and scope (first seen first), until
 * `request()` writes them as one ExportTraceServiceRequest: resource_spans 1, each resource 1
 * (attributes 1), scope_spans 2, schema_url 3. A span's bytes are all that is kept of it, so the
 * SDK's span object is garbage once it ends. Writers keep their buffers for the next batch.
 */
export class EncodedSpans {
  private readonly groups = new Map<ReadableSpan['resource'], Map<Scope, BinaryWriter>>();
  private readonly spare: BinaryWriter[] = [];
  /** Spans added since the last request(). */
  count = 0;

  add(span: ReadableSpan): void {
    let scopes = this.groups.get(span.resource);
    if (scopes === undefined) this.groups.set(span.resource, (scopes = new Map()));
    let writer = scopes.get(span.instrumentationScope);
    if (writer === undefined) scopes.set(span.instrumentationScope, (writer = this.spare.pop() ?? new BinaryWriter()));
    writeSpan(writer, span);
    this.count++;
  }

  /** The request of every span added, and this batch empty again. */
  request(): Uint8Array {
    const w = new BinaryWriter();
    for (const [resource, scopes] of this.groups) {
      w.tag(1, LEN).fork().tag(1, LEN).fork();
      writeAttributes(w, 1, resource.attributes);
      w.join();
      for (const [scope, writer] of scopes) {
        writeScopeSpans(w, scope, writer.finish());
        this.spare.push(writer);
      }
      writeString(w, 3, resource.schemaUrl);
      w.join();
    }
    this.groups.clear();
    this.count = 0;
    return w.finish();
  }
}

/** ExportTraceServiceRequest of these spans, grouped by resource and scope, first seen first. */
export function serializeSpans(spans: readonly ReadableSpan[]): Uint8Array {
  const batch = new EncodedSpans();
  for (const span of spans) batch.add(span);
  return batch.request();
}

/** ExportTraceServiceResponse: partial_success 1 (rejected_spans 1, error_message 2). */
export function deserializeTraceResponse(bytes: Uint8Array): TraceExportResponse {
  const out: TraceExportResponse = {};
  const r = new BinaryReader(bytes);
  while (r.pos < r.len) {
    const [no, type] = r.tag();
    if (no !== 1 || type !== LEN) {
      r.skip(type);
      continue;
    }
    const partial: NonNullable<TraceExportResponse['partialSuccess']> = {};
    const p = new BinaryReader(r.bytes());
    while (p.pos < p.len) {
      const [field, kind] = p.tag();
      if (field === 1 && kind === VARINT) partial.rejectedSpans = Number(p.int64());
      else if (field === 2 && kind === LEN) partial.errorMessage = p.string();
      else p.skip(kind);
    }
    out.partialSuccess = partial;
  }
  return out;
}

/** One export: an ExportTraceServiceRequest and how many spans it holds. */
export interface EncodedBatch {
  bytes: Uint8Array;
  count: number;
}

/** The SDK's OTLP/HTTP export path (as @opentelemetry/exporter-trace-otlp-proto builds it) for batches already written. */
export function protobufExportDelegate(config: OTLPExporterNodeConfigBase): IOtlpExportDelegate<EncodedBatch> {
  return createOtlpHttpExportDelegate(
    convertLegacyHttpOptions(config, 'TRACES', 'v1/traces', { 'Content-Type': 'application/x-protobuf' }),
    { serializeRequest: (batch: EncodedBatch) => batch.bytes, deserializeResponse: deserializeTraceResponse },
    'otlp_http_span_exporter', // the SDK's own exporter's component type, for its self-observability metrics
    { name: 'span', countItems: (batch) => batch.count },
    undefined,
  );
}
