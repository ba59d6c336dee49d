// OTLP/HTTP protobuf export of spans: an ExportTraceServiceRequest written straight from the SDK's
// ReadableSpans with ./proto-writer.ts (field numbers of opentelemetry-proto's
// trace/v1/trace.proto, common/v1/common.proto and resource/v1/resource.proto), into the SDK's own
// HTTP export path (transport, retries, timeout, compression, headers, concurrency limit). Why not
// the SDK's serializer: docs/architecture.md ("Traces"). test/telemetry/otlp-protobuf.test.ts
// decodes its bytes against the SDK's for the same spans.
import type { Attributes, HrTime, Link } from '@opentelemetry/api';
import type { IOtlpExportDelegate, OTLPExporterNodeConfigBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';
import { BinaryReader } from '@bufbuild/protobuf/wire';
import { ProtoWriter } from './proto-writer.ts';
import { EngineSpan } from './tracer.ts';

/** ExportTraceServiceResponse (collector/trace/v1/trace_service.proto), as the SDK's response handler reads it. */
export interface TraceExportResponse {
  partialSuccess?: { rejectedSpans?: number; errorMessage?: string };
}

/** A field's tag: (number << 3) | wire type (varint 0, 64-bit 1, length-delimited 2, 32-bit 5). */
const LEN = 2;
const VARINT = 0;
const I64 = 1;
const I32 = 5;
const tag = (field: number, type: number): number => (field << 3) | type;

/** Span.flags: the W3C trace flags, and that the parent's remoteness is known (bit 8) and what it is (bit 9). */
const flagsOf = (traceFlags: number, remote: boolean | undefined): number => (traceFlags & 0xff) | 0x100 | (remote ? 0x200 : 0);

/** A hex digit's value by character code (0 for any other: the SDK only hands on valid IDs). */
const HEX = new Uint8Array(128);
for (let c = 0; c < 16; c++) {
  HEX['0123456789abcdef'.charCodeAt(c)] = c;
  HEX['0123456789ABCDEF'.charCodeAt(c)] = c;
}
/** A trace or span ID's bytes from its hex, written straight into the writer: a table lookup per digit, no branch on random digits. */
function writeId(w: ProtoWriter, field: number, hex: string): void {
  const n = hex.length >> 1;
  w.ensure(n + 2);
  const buf = w.buf;
  let pos = w.pos;
  buf[pos++] = tag(field, LEN);
  buf[pos++] = n;
  for (let i = 0; i < n; i++) buf[pos + i] = (HEX[hex.charCodeAt(2 * i) & 0x7f]! << 4) | HEX[hex.charCodeAt(2 * i + 1) & 0x7f]!;
  w.pos = pos + n;
}

/** An [seconds, nanoseconds] time as fixed64 nanoseconds. */
function writeTime(w: ProtoWriter, field: number, [seconds, nanos]: HrTime): void {
  writeSecondsNanos(w, field, seconds, nanos);
}

/**
 * A time as fixed64 nanoseconds, in two 32-bit halves: seconds × 10⁹ passes 2⁵³, so it is taken
 * as (seconds × 5⁹) × 2⁹, exact in a double up to the year 2116 (BigInt past that).
 */
function writeSecondsNanos(w: ProtoWriter, field: number, seconds: number, nanos: number): void {
  w.byte(tag(field, I64));
  const m = seconds * 1_953_125;
  if (m > Number.MAX_SAFE_INTEGER) {
    const ns = BigInt(seconds) * 1_000_000_000n + BigInt(nanos);
    w.fixed32(Number(ns & 0xffffffffn)).fixed32(Number((ns >> 32n) & 0xffffffffn));
    return;
  }
  const mLow = m % 0x800000; // the low 23 bits of m, which × 2⁹ fill the low 32 bits
  const low = mLow * 512 + nanos;
  const carry = Math.floor(low / 0x100000000);
  w.fixed32(low - carry * 0x100000000).fixed32((m - mLow) / 0x800000 + carry);
}

/** AnyValue: string 1, bool 2, int64 3, double 4, array 5, key-value list 6, bytes 7; null an empty AnyValue. */
function writeValue(w: ProtoWriter, value: unknown): void {
  switch (typeof value) {
    case 'string':
      w.byte(tag(1, LEN)).string(value);
      return;
    case 'boolean':
      w.byte(tag(2, VARINT)).byte(value ? 1 : 0);
      return;
    case 'number':
      if (Number.isInteger(value) && value >= -(2 ** 63) && value < 2 ** 63) {
        w.byte(tag(3, VARINT));
        if (value >= 0 && value <= Number.MAX_SAFE_INTEGER) w.varint(value);
        else w.int64(BigInt(value));
      } else w.byte(tag(4, I64)).double(value);
      return;
  }
  if (value instanceof Uint8Array) w.byte(tag(7, LEN)).bytes(value);
  else if (Array.isArray(value)) {
    w.byte(tag(5, LEN)).fork();
    for (const item of value as unknown[]) {
      w.byte(tag(1, LEN)).fork();
      writeValue(w, item);
      w.join();
    }
    w.join();
  } else if (typeof value === 'object' && value !== null) {
    w.byte(tag(6, LEN)).fork();
    writeAttributes(w, 1, value as Attributes);
    w.join();
  }
}

/**
 * KeyValue messages already encoded, by key and value: the Engine's spans repeat theirs (methods,
 * routes, operations, hosts, statuses), so most are copied, not written. Bounded: scalars only,
 * strings up to 128 characters, at most MAX_PER_KEY values of a key (one whose values never repeat,
 * `svc.receipt.id`, would otherwise fill the cache before the values that do), and past MAX_ENCODED
 * entries the rest are written each time.
 */
const encoded = new Map<string, Map<unknown, Uint8Array>>();
const MAX_ENCODED = 2048;
const MAX_PER_KEY = 256;
let encodedCount = 0;
/** A KeyValue's bytes, by a writer of its own: a list value's entries are cached too, by this same path. */
function keyValue(key: string, value: unknown): Uint8Array {
  const w = new ProtoWriter(64).byte(tag(1, LEN)).string(key).byte(tag(2, LEN)).fork();
  writeValue(w, value);
  return w.join().finish();
}

/** A span's name, its UTF-8 kept as attributes are (names are routes and methods: a fixed set). */
const names = new Map<string, Uint8Array>();
function writeName(w: ProtoWriter, name: string): void {
  let bytes = names.get(name);
  if (bytes === undefined && encodedCount < MAX_ENCODED && name.length <= 128) {
    names.set(name, (bytes = Buffer.from(name, 'utf8')));
    encodedCount++;
  }
  if (bytes !== undefined) {
    if (bytes.length > 0) w.byte(tag(5, LEN)).bytes(bytes);
  } else writeString(w, 5, name);
}

/** Repeated KeyValue (key 1, value 2) under `field` (under 16: its tag is one byte). */
function writeAttributes(w: ProtoWriter, field: number, attributes: Attributes): void {
  const fieldTag = tag(field, LEN);
  for (const key in attributes) {
    if (!Object.hasOwn(attributes, key)) continue;
    const value = attributes[key];
    let byValue = encoded.get(key);
    let bytes = byValue?.get(value);
    if (bytes === undefined && encodedCount < MAX_ENCODED && (byValue === undefined || byValue.size < MAX_PER_KEY) && (typeof value === 'number' || typeof value === 'boolean' || (typeof value === 'string' && value.length <= 128))) {
      if (byValue === undefined) encoded.set(key, (byValue = new Map()));
      byValue.set(value, (bytes = keyValue(key, value)));
      encodedCount++;
    }
    if (bytes !== undefined) w.byte(fieldTag).bytes(bytes);
    else {
      w.byte(fieldTag).fork().byte(tag(1, LEN)).string(key).byte(tag(2, LEN)).fork();
      writeValue(w, value);
      w.join().join();
    }
  }
}

/** A count field, left out when 0 (proto3's default). */
function writeCount(w: ProtoWriter, field: number, count: number | undefined): void {
  if (count) w.byte(tag(field, VARINT)).varint(count);
}

function writeString(w: ProtoWriter, field: number, text: string | undefined): void {
  if (text) w.byte(tag(field, LEN)).string(text);
}

/** Span.Event: time 1, name 2, attributes 3, dropped_attributes_count 4. */
function writeEvent(w: ProtoWriter, event: TimedEvent): void {
  w.byte(tag(11, LEN)).fork();
  writeTime(w, 1, event.time);
  writeString(w, 2, event.name);
  if (event.attributes) writeAttributes(w, 3, event.attributes);
  writeCount(w, 4, event.droppedAttributesCount);
  w.join();
}

/** Span.Link: trace_id 1, span_id 2, trace_state 3, attributes 4, dropped_attributes_count 5, flags 6. */
function writeLink(w: ProtoWriter, link: Link): void {
  const { traceId, spanId, traceState, traceFlags, isRemote } = link.context;
  w.byte(tag(13, LEN)).fork();
  writeId(w, 1, traceId);
  writeId(w, 2, spanId);
  writeString(w, 3, traceState?.serialize());
  if (link.attributes) writeAttributes(w, 4, link.attributes);
  writeCount(w, 5, link.droppedAttributesCount);
  w.byte(tag(6, I32)).fixed32(flagsOf(traceFlags, isRemote));
  w.join();
}

/** Span.flags (field 16, fixed32): its tag takes two bytes. */
const FLAGS_TAG = tag(16, I32);

/**
 * Span: trace_id 1, span_id 2, trace_state 3, parent_span_id 4, name 5, kind 6, start 7, end 8,
 * attributes 9, dropped_attributes_count 10, events 11, dropped_events_count 12, links 13,
 * dropped_links_count 14, status 15 (message 2, code 3), flags 16.
 */
function writeSpan(w: ProtoWriter, span: ReadableSpan): void {
  const { traceId, spanId, traceState, traceFlags } = span.spanContext();
  const parent = span.parentSpanContext;
  w.byte(tag(2, LEN)).forkLong();
  const start = w.pos;
  writeId(w, 1, traceId);
  writeId(w, 2, spanId);
  writeString(w, 3, traceState?.serialize());
  if (parent?.spanId) writeId(w, 4, parent.spanId);
  writeName(w, span.name);
  w.byte(tag(6, VARINT)).byte(span.kind + 1); // the API's kinds start at 0, OTLP's at 1 (0 is unspecified)
  if (span instanceof EngineSpan) {
    // The Engine's span keeps its times as numbers: no pairs made to be read once.
    writeSecondsNanos(w, 7, span.startSeconds, span.startNanos);
    writeSecondsNanos(w, 8, span.endSeconds, span.endNanos);
  } else {
    writeTime(w, 7, span.startTime);
    writeTime(w, 8, span.endTime);
  }
  writeAttributes(w, 9, span.attributes);
  writeCount(w, 10, span.droppedAttributesCount);
  for (const event of span.events) writeEvent(w, event);
  writeCount(w, 12, span.droppedEventsCount);
  for (const link of span.links) writeLink(w, link);
  writeCount(w, 14, span.droppedLinksCount);
  const { code, message } = span.status;
  if (code || message) {
    w.byte(tag(15, LEN)).fork();
    writeString(w, 2, message);
    if (code) w.byte(tag(3, VARINT)).varint(code);
    w.join();
  } else w.byte(tag(15, LEN)).byte(0); // an empty Status, as the SDK sends
  w.varint(FLAGS_TAG).fixed32(flagsOf(traceFlags, parent?.isRemote));
  w.joinLong(start);
}

type Scope = ReadableSpan['instrumentationScope'] & { attributes?: Attributes; droppedAttributesCount?: number };

/** InstrumentationScope under field 1 of ScopeSpans: name 1, version 2, attributes 3, dropped_attributes_count 4. */
function writeScope(w: ProtoWriter, scope: Scope): void {
  w.byte(tag(1, LEN)).fork();
  writeString(w, 1, scope.name);
  writeString(w, 2, scope.version);
  if (scope.attributes) writeAttributes(w, 3, scope.attributes);
  writeCount(w, 4, scope.droppedAttributesCount);
  w.join();
}

/**
 * Spans written the moment they are added, by resource and scope (first seen first), until
 * `request()` writes them as one ExportTraceServiceRequest: resource_spans 1, each resource 1
 * (attributes 1), scope_spans 2, schema_url 3. A span's bytes are all that is kept of it, so the
 * span object is garbage once it ends. Writers keep their buffers for the next batch.
 */
export class EncodedSpans {
  private readonly groups = new Map<ReadableSpan['resource'], Map<Scope, ProtoWriter>>();
  private readonly spare: ProtoWriter[] = [];
  /** Spans added since the last request(). */
  count = 0;

  add(span: ReadableSpan): void {
    let scopes = this.groups.get(span.resource);
    if (scopes === undefined) this.groups.set(span.resource, (scopes = new Map()));
    let writer = scopes.get(span.instrumentationScope);
    if (writer === undefined) scopes.set(span.instrumentationScope, (writer = this.spare.pop() ?? new ProtoWriter()));
    writeSpan(writer, span);
    this.count++;
  }

  /**
   * The request of every span added, and this batch empty again. Each message's length is known
   * before it is written (the spans' bytes are), so the request is written once at its exact
   * size: the spans copied in once, no message moved to make room for its length.
   */
  request(): Uint8Array {
    const w = new ProtoWriter(256); // the small parts: tags, lengths, resources, scopes
    const parts: Uint8Array[] = [];
    let total = 0;
    for (const [resource, scopes] of this.groups) {
      // ResourceSpans: resource 1, scope_spans 2 (each: scope 1, spans 2, schema_url 3), schema_url 3.
      w.byte(tag(1, LEN)).fork();
      writeAttributes(w, 1, resource.attributes);
      const resourcePart = w.join().finish();
      writeString(w, 3, resource.schemaUrl);
      const resourceTail = w.finish();
      const inner: Uint8Array[] = [resourcePart];
      let innerBytes = resourcePart.length + resourceTail.length;
      for (const [scope, writer] of scopes) {
        writeScope(w, scope);
        const scopePart = w.finish();
        writeString(w, 3, scope.schemaUrl);
        const scopeTail = w.finish();
        const spans = writer.written();
        const head = w.byte(tag(2, LEN)).varint(scopePart.length + spans.length + scopeTail.length).finish();
        inner.push(head, scopePart, spans, scopeTail);
        innerBytes += head.length + scopePart.length + spans.length + scopeTail.length;
      }
      inner.push(resourceTail);
      const head = w.byte(tag(1, LEN)).varint(innerBytes).finish();
      parts.push(head, ...inner);
      total += head.length + innerBytes;
    }
    // Not zero-filled: every byte is written below.
    const out = new Uint8Array(Buffer.allocUnsafeSlow(total).buffer, 0, total);
    let pos = 0;
    for (const part of parts) {
      if (part.length > 64) out.set(part, pos);
      else for (let i = 0; i < part.length; i++) out[pos + i] = part[i]!;
      pos += part.length;
    }
    for (const scopes of this.groups.values())
      for (const writer of scopes.values()) {
        writer.reset();
        this.spare.push(writer);
      }
    this.groups.clear();
    this.count = 0;
    return out;
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
