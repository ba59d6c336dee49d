// The wire side of the gRPC service: an ExecuteRequest's bytes checked field by field before
// decoding (a field of the wrong wire type is named, never guessed), and an envelope as the reply message.
import { BinaryReader } from '@bufbuild/protobuf/wire';
import { ExecuteRequest, type Envelope as WireEnvelope } from '../../generated/grpc/engine.ts';
import type { Envelope } from '../envelope/index.ts';
import type { Continuation } from '../execution/index.ts';

/**
 * A request message that could not be decoded. grpc-js answers a deserializer that throws with
 * INTERNAL "Error deserializing request"; the service's deserializer returns this instead, and
 * the call is answered INVALID_ARGUMENT naming the field.
 */
export class Undecodable {
  readonly message: string;
  constructor(message: string) {
    this.message = message;
  }
}

export const WIRE_TYPES = ['varint', '64-bit', 'length-delimited', 'start-group', 'end-group', '32-bit'];
export interface WireField {
  name: string;
  /** The wire type the field is encoded with (2: length-delimited, 0: varint). */
  wire: number;
  /** A string field: its bytes must be UTF-8 (proto3). */
  text?: boolean;
  nested?: Record<number, WireField>;
}
export const text = (name: string): WireField => ({ name, wire: 2, text: true });
/**
 * spec/engine.proto's ExecuteRequest, by field number: keep in step with it. A field missing here is
 * still decoded by the generated code, only without the wire-type and UTF-8 checks below.
 */
export const EXECUTE_REQUEST: Record<number, WireField> = {
  1: text('version_id'),
  2: text('operation'),
  3: text('input_json'),
  4: { name: 'pagination', wire: 2, nested: { 1: { name: 'max_pages', wire: 0 } } },
  5: { name: 'selectors', wire: 2, nested: { 1: text('end_user_ref'), 2: text('auth_type'), 3: text('auth_name'), 4: text('resource_id') } },
};

/** Why a field cannot be taken; LocatedProblem: the same, naming the field and where it starts. */
export class WireProblem extends Error {}
export class LocatedProblem extends Error {}

/**
 * Walks the message's wire format, throwing a LocatedProblem that names the field for what the
 * generated decoder would refuse (truncated data, an illegal tag) or would take silently: a known
 * field sent with another wire type (it would be skipped, the field left empty), a string that is
 * not UTF-8 (it would be decoded with U+FFFD). Fields this Engine does not know are skipped, as
 * protobuf's compatibility rules have it.
 */
export function checkWire(reader: BinaryReader, end: number, fields: Record<number, WireField>, prefix: string): void {
  while (reader.pos < end) {
    const at = reader.pos;
    let name = `${prefix}a tag`;
    try {
      const [no, wire] = reader.tag();
      const field = fields[no];
      name = field ? `${prefix}${field.name} (field ${no})` : `${prefix}field ${no}`;
      if (field && wire !== field.wire) throw new WireProblem(`is encoded as ${WIRE_TYPES[wire] ?? `wire type ${wire}`}, not ${WIRE_TYPES[field.wire]}`);
      if (field?.nested) {
        const length = reader.uint32();
        const stop = reader.pos + length;
        if (stop > end) throw new WireProblem(`is ${length} bytes long, past the end of the message`);
        checkWire(reader, stop, field.nested, `${prefix}${field.name}.`);
      } else if (field?.text) {
        try {
          reader.string(true);
        } catch (err) {
          throw err instanceof RangeError ? err : new WireProblem('is not valid UTF-8 (a proto3 string must be)');
        }
      } else if (field?.wire === 0) {
        // Read as the generated decoder reads it (int32), so that a varint it refuses (longer than 10 bytes) is named here.
        reader.int32();
      } else reader.skip(wire, no);
      if (reader.pos > end) throw new WireProblem('runs past the end of the message');
    } catch (err) {
      if (err instanceof LocatedProblem) throw err;
      const reason =
        err instanceof WireProblem ? err.message : err instanceof RangeError ? 'is cut short (the message ends inside it)' : `cannot be read (${(err as Error).message})`;
      throw new LocatedProblem(`${name} ${reason}, at byte ${at}`);
    }
  }
}

/** The service's request deserializer: the decoded request, or Undecodable saying why it is not one. */
export function decodeRequest(bytes: Buffer): ExecuteRequest {
  try {
    checkWire(new BinaryReader(bytes), bytes.length, EXECUTE_REQUEST, '');
    return ExecuteRequest.decode(bytes);
  } catch (err) {
    const reason = (err as Error).message;
    return new Undecodable(`the request is not a valid svc.engine.v1.ExecuteRequest message: ${reason}`) as unknown as ExecuteRequest;
  }
}

/** The envelope as the wire message; `dataJson`, when given, is `envelope.data` as JSON text already (the provider's own body). */
export function toWire(envelope: Envelope, dataJson?: string, exactDetails?: Record<string, unknown>, continuation?: Continuation): WireEnvelope {
  const error = envelope.error;
  return {
    ok: envelope.ok,
    status: envelope.status,
    dataJson: dataJson ?? JSON.stringify(envelope.data ?? null),
    continuationJson: continuation === undefined ? undefined : JSON.stringify(continuation),
    error: error
      ? {
          code: error.code,
          message: error.message,
          retryable: error.retryable,
          detailsJson: error.details === undefined ? undefined : JSON.stringify(exactDetails ?? error.details),
          recoveryJson: error.recovery === undefined ? undefined : JSON.stringify(error.recovery),
        }
      : undefined,
  };
}
