// Written by `npm run gen` from spec/. Do not edit: change the spec and regenerate.
import { BinaryReader, BinaryWriter } from "@bufbuild/protobuf/wire";
import {
  makeGenericClientConstructor
} from "@grpc/grpc-js";
const protobufPackage = "svc.engine.v1";
const protobufFileName = "engine.proto";
function createBaseExecuteRequest() {
  return { versionId: "", operation: "", inputJson: "", pagination: void 0, selectors: void 0 };
}
const ExecuteRequest = {
  encode(message, writer = new BinaryWriter()) {
    if (message.versionId !== "") {
      writer.uint32(10).string(message.versionId);
    }
    if (message.operation !== "") {
      writer.uint32(18).string(message.operation);
    }
    if (message.inputJson !== "") {
      writer.uint32(26).string(message.inputJson);
    }
    if (message.pagination !== void 0) {
      Pagination.encode(message.pagination, writer.uint32(34).fork()).join();
    }
    if (message.selectors !== void 0) {
      Selectors.encode(message.selectors, writer.uint32(42).fork()).join();
    }
    return writer;
  },
  decode(input, length) {
    const reader = input instanceof BinaryReader ? input : new BinaryReader(input);
    const previousRecursionDepth = reader.__tsProtoDecodeDepth ?? 0;
    if (previousRecursionDepth >= 100) {
      throw new globalThis.Error("protobuf decode recursion limit exceeded");
    }
    reader.__tsProtoDecodeDepth = previousRecursionDepth + 1;
    try {
      const end = length === void 0 ? reader.len : reader.pos + length;
      const message = createBaseExecuteRequest();
      while (reader.pos < end) {
        const tag = reader.uint32();
        switch (tag >>> 3) {
          case 1: {
            if (tag !== 10) {
              break;
            }
            message.versionId = reader.string();
            continue;
          }
          case 2: {
            if (tag !== 18) {
              break;
            }
            message.operation = reader.string();
            continue;
          }
          case 3: {
            if (tag !== 26) {
              break;
            }
            message.inputJson = reader.string();
            continue;
          }
          case 4: {
            if (tag !== 34) {
              break;
            }
            message.pagination = Pagination.decode(reader, reader.uint32());
            continue;
          }
          case 5: {
            if (tag !== 42) {
              break;
            }
            message.selectors = Selectors.decode(reader, reader.uint32());
            continue;
          }
        }
        if ((tag & 7) === 4 || tag === 0) {
          break;
        }
        reader.skip(tag & 7);
      }
      return message;
    } finally {
      reader.__tsProtoDecodeDepth = previousRecursionDepth;
    }
  },
  create(base) {
    return ExecuteRequest.fromPartial(base ?? {});
  },
  fromPartial(object) {
    const message = createBaseExecuteRequest();
    message.versionId = object.versionId ?? "";
    message.operation = object.operation ?? "";
    message.inputJson = object.inputJson ?? "";
    message.pagination = object.pagination !== void 0 && object.pagination !== null ? Pagination.fromPartial(object.pagination) : void 0;
    message.selectors = object.selectors !== void 0 && object.selectors !== null ? Selectors.fromPartial(object.selectors) : void 0;
    return message;
  }
};
function createBasePagination() {
  return { maxPages: void 0 };
}
const Pagination = {
  encode(message, writer = new BinaryWriter()) {
    if (message.maxPages !== void 0) {
      writer.uint32(8).int32(message.maxPages);
    }
    return writer;
  },
  decode(input, length) {
    const reader = input instanceof BinaryReader ? input : new BinaryReader(input);
    const previousRecursionDepth = reader.__tsProtoDecodeDepth ?? 0;
    if (previousRecursionDepth >= 100) {
      throw new globalThis.Error("protobuf decode recursion limit exceeded");
    }
    reader.__tsProtoDecodeDepth = previousRecursionDepth + 1;
    try {
      const end = length === void 0 ? reader.len : reader.pos + length;
      const message = createBasePagination();
      while (reader.pos < end) {
        const tag = reader.uint32();
        switch (tag >>> 3) {
          case 1: {
            if (tag !== 8) {
              break;
            }
            message.maxPages = reader.int32();
            continue;
          }
        }
        if ((tag & 7) === 4 || tag === 0) {
          break;
        }
        reader.skip(tag & 7);
      }
      return message;
    } finally {
      reader.__tsProtoDecodeDepth = previousRecursionDepth;
    }
  },
  create(base) {
    return Pagination.fromPartial(base ?? {});
  },
  fromPartial(object) {
    const message = createBasePagination();
    message.maxPages = object.maxPages ?? void 0;
    return message;
  }
};
function createBaseSelectors() {
  return { endUserRef: void 0, authType: void 0, authName: void 0, resourceId: void 0 };
}
const Selectors = {
  encode(message, writer = new BinaryWriter()) {
    if (message.endUserRef !== void 0) {
      writer.uint32(10).string(message.endUserRef);
    }
    if (message.authType !== void 0) {
      writer.uint32(18).string(message.authType);
    }
    if (message.authName !== void 0) {
      writer.uint32(26).string(message.authName);
    }
    if (message.resourceId !== void 0) {
      writer.uint32(34).string(message.resourceId);
    }
    return writer;
  },
  decode(input, length) {
    const reader = input instanceof BinaryReader ? input : new BinaryReader(input);
    const previousRecursionDepth = reader.__tsProtoDecodeDepth ?? 0;
    if (previousRecursionDepth >= 100) {
      throw new globalThis.Error("protobuf decode recursion limit exceeded");
    }
    reader.__tsProtoDecodeDepth = previousRecursionDepth + 1;
    try {
      const end = length === void 0 ? reader.len : reader.pos + length;
      const message = createBaseSelectors();
      while (reader.pos < end) {
        const tag = reader.uint32();
        switch (tag >>> 3) {
          case 1: {
            if (tag !== 10) {
              break;
            }
            message.endUserRef = reader.string();
            continue;
          }
          case 2: {
            if (tag !== 18) {
              break;
            }
            message.authType = reader.string();
            continue;
          }
          case 3: {
            if (tag !== 26) {
              break;
            }
            message.authName = reader.string();
            continue;
          }
          case 4: {
            if (tag !== 34) {
              break;
            }
            message.resourceId = reader.string();
            continue;
          }
        }
        if ((tag & 7) === 4 || tag === 0) {
          break;
        }
        reader.skip(tag & 7);
      }
      return message;
    } finally {
      reader.__tsProtoDecodeDepth = previousRecursionDepth;
    }
  },
  create(base) {
    return Selectors.fromPartial(base ?? {});
  },
  fromPartial(object) {
    const message = createBaseSelectors();
    message.endUserRef = object.endUserRef ?? void 0;
    message.authType = object.authType ?? void 0;
    message.authName = object.authName ?? void 0;
    message.resourceId = object.resourceId ?? void 0;
    return message;
  }
};
function createBaseEnvelope() {
  return { ok: false, status: 0, dataJson: "", error: void 0, continuationJson: void 0 };
}
const Envelope = {
  encode(message, writer = new BinaryWriter()) {
    if (message.ok !== false) {
      writer.uint32(8).bool(message.ok);
    }
    if (message.status !== 0) {
      writer.uint32(16).int32(message.status);
    }
    if (message.dataJson !== "") {
      writer.uint32(26).string(message.dataJson);
    }
    if (message.error !== void 0) {
      EnvelopeError.encode(message.error, writer.uint32(34).fork()).join();
    }
    if (message.continuationJson !== void 0) {
      writer.uint32(42).string(message.continuationJson);
    }
    return writer;
  },
  decode(input, length) {
    const reader = input instanceof BinaryReader ? input : new BinaryReader(input);
    const previousRecursionDepth = reader.__tsProtoDecodeDepth ?? 0;
    if (previousRecursionDepth >= 100) {
      throw new globalThis.Error("protobuf decode recursion limit exceeded");
    }
    reader.__tsProtoDecodeDepth = previousRecursionDepth + 1;
    try {
      const end = length === void 0 ? reader.len : reader.pos + length;
      const message = createBaseEnvelope();
      while (reader.pos < end) {
        const tag = reader.uint32();
        switch (tag >>> 3) {
          case 1: {
            if (tag !== 8) {
              break;
            }
            message.ok = reader.bool();
            continue;
          }
          case 2: {
            if (tag !== 16) {
              break;
            }
            message.status = reader.int32();
            continue;
          }
          case 3: {
            if (tag !== 26) {
              break;
            }
            message.dataJson = reader.string();
            continue;
          }
          case 4: {
            if (tag !== 34) {
              break;
            }
            message.error = EnvelopeError.decode(reader, reader.uint32());
            continue;
          }
          case 5: {
            if (tag !== 42) {
              break;
            }
            message.continuationJson = reader.string();
            continue;
          }
        }
        if ((tag & 7) === 4 || tag === 0) {
          break;
        }
        reader.skip(tag & 7);
      }
      return message;
    } finally {
      reader.__tsProtoDecodeDepth = previousRecursionDepth;
    }
  },
  create(base) {
    return Envelope.fromPartial(base ?? {});
  },
  fromPartial(object) {
    const message = createBaseEnvelope();
    message.ok = object.ok ?? false;
    message.status = object.status ?? 0;
    message.dataJson = object.dataJson ?? "";
    message.error = object.error !== void 0 && object.error !== null ? EnvelopeError.fromPartial(object.error) : void 0;
    message.continuationJson = object.continuationJson ?? void 0;
    return message;
  }
};
function createBaseEnvelopeError() {
  return { code: "", message: "", retryable: false, detailsJson: void 0, recoveryJson: void 0 };
}
const EnvelopeError = {
  encode(message, writer = new BinaryWriter()) {
    if (message.code !== "") {
      writer.uint32(10).string(message.code);
    }
    if (message.message !== "") {
      writer.uint32(18).string(message.message);
    }
    if (message.retryable !== false) {
      writer.uint32(24).bool(message.retryable);
    }
    if (message.detailsJson !== void 0) {
      writer.uint32(34).string(message.detailsJson);
    }
    if (message.recoveryJson !== void 0) {
      writer.uint32(42).string(message.recoveryJson);
    }
    return writer;
  },
  decode(input, length) {
    const reader = input instanceof BinaryReader ? input : new BinaryReader(input);
    const previousRecursionDepth = reader.__tsProtoDecodeDepth ?? 0;
    if (previousRecursionDepth >= 100) {
      throw new globalThis.Error("protobuf decode recursion limit exceeded");
    }
    reader.__tsProtoDecodeDepth = previousRecursionDepth + 1;
    try {
      const end = length === void 0 ? reader.len : reader.pos + length;
      const message = createBaseEnvelopeError();
      while (reader.pos < end) {
        const tag = reader.uint32();
        switch (tag >>> 3) {
          case 1: {
            if (tag !== 10) {
              break;
            }
            message.code = reader.string();
            continue;
          }
          case 2: {
            if (tag !== 18) {
              break;
            }
            message.message = reader.string();
            continue;
          }
          case 3: {
            if (tag !== 24) {
              break;
            }
            message.retryable = reader.bool();
            continue;
          }
          case 4: {
            if (tag !== 34) {
              break;
            }
            message.detailsJson = reader.string();
            continue;
          }
          case 5: {
            if (tag !== 42) {
              break;
            }
            message.recoveryJson = reader.string();
            continue;
          }
        }
        if ((tag & 7) === 4 || tag === 0) {
          break;
        }
        reader.skip(tag & 7);
      }
      return message;
    } finally {
      reader.__tsProtoDecodeDepth = previousRecursionDepth;
    }
  },
  create(base) {
    return EnvelopeError.fromPartial(base ?? {});
  },
  fromPartial(object) {
    const message = createBaseEnvelopeError();
    message.code = object.code ?? "";
    message.message = object.message ?? "";
    message.retryable = object.retryable ?? false;
    message.detailsJson = object.detailsJson ?? void 0;
    message.recoveryJson = object.recoveryJson ?? void 0;
    return message;
  }
};
const EngineService = {
  /**
   * Calls one operation selected in an SDK version and returns the result envelope. Refusals
   * and failures are envelopes too (ok = false), the same envelope REST gives for the same call
   * (its fields named as in the REST body: `selectors.endUserRef`, `input.contact_id`; only a
   * malformed ExecuteRequest itself is named as here: `input_json`). A gRPC status other than OK means no
   * envelope: INVALID_ARGUMENT (not a valid ExecuteRequest; the details name the field and byte),
   * RESOURCE_EXHAUSTED (over the receive limit), DEADLINE_EXCEEDED (also when the deadline passes
   * while the call runs: its provider request is cancelled), CANCELLED, UNIMPLEMENTED (not one
   * request message, or a compression the Engine does not take) and, from grpc-js, INTERNAL for a
   * compressed message that does not decompress.
   */
  execute: {
    path: "/svc.engine.v1.Engine/Execute",
    requestStream: false,
    responseStream: false,
    requestSerialize: (value) => Buffer.from(ExecuteRequest.encode(value).finish()),
    requestDeserialize: (value) => ExecuteRequest.decode(value),
    responseSerialize: (value) => Buffer.from(Envelope.encode(value).finish()),
    responseDeserialize: (value) => Envelope.decode(value)
  }
};
const EngineClient = makeGenericClientConstructor(EngineService, "svc.engine.v1.Engine");
export {
  EngineClient,
  EngineService,
  Envelope,
  EnvelopeError,
  ExecuteRequest,
  Pagination,
  Selectors,
  protobufFileName,
  protobufPackage
};
