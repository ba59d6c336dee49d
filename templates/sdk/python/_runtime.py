"""Runtime of the generated svc-engine SDK packages.

One gRPC call per operation, and the result envelope ``{ok, status, data, error}`` for every
outcome. Transport failures become an envelope with code ``TRANSPORT_UNAVAILABLE``; nothing is
raised.
"""
import json
import re
import sys
import typing as _t
from dataclasses import dataclass

import grpc

from . import engine_pb2, engine_pb2_grpc

# Longest timeout set on a call, in seconds (about 23 days); longer is none. A gRPC server on grpc-js
# reads the timeout as 32-bit milliseconds: from 2^31 ms (24.8 days) it would wrap round and fail at once.
_MAX_TIMEOUT_S = 2_000_000
# An idempotency key as the Engine takes it: 1 to 200 visible ASCII characters.
_IDEMPOTENCY_KEY = re.compile(r"[\x21-\x7e]{1,200}")
# A W3C traceparent: version (not ff), a trace ID and a span ID that are not all zeros, flags.
_TRACEPARENT = re.compile(r"(?!ff)[0-9a-f]{2}-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}")
# A W3C tracestate: at most 512 printable ASCII characters.
_TRACESTATE = re.compile(r"[\x20-\x7e]{0,512}")

_propagate: _t.Any
try:  # The app's OpenTelemetry API, when it has one: a call then carries its active trace context.
    from opentelemetry import propagate as _propagate
except Exception:  # pragma: no cover - optional; a misconfigured one (OTEL_PROPAGATORS naming a missing propagator) raises ValueError
    _propagate = None


def _trace_context(traceparent: _t.Optional[str], tracestate: _t.Optional[str]) -> _t.Tuple[_t.Tuple[str, str], ...]:
    """The trace context a call sends: the one given, else the app's active OpenTelemetry context, if any."""
    if traceparent is None and _propagate is not None:
        carrier: _t.Dict[str, str] = {}
        try:
            _propagate.inject(carrier)
        except Exception:  # pragma: no cover - the app's propagator failed: the call goes untraced
            return ()
        traceparent, tracestate = carrier.get("traceparent"), carrier.get("tracestate")
        if not isinstance(traceparent, str) or not _TRACEPARENT.fullmatch(traceparent):
            return ()
    if traceparent is None:
        return ()
    pairs: _t.Tuple[_t.Tuple[str, str], ...] = (("traceparent", traceparent),)
    if isinstance(tracestate, str) and tracestate and _TRACESTATE.fullmatch(tracestate):
        pairs = (*pairs, ("tracestate", tracestate))
    return pairs

if sys.version_info >= (3, 11):
    from typing import TypedDict as _TypedDict
else:  # pragma: no cover
    from typing_extensions import TypedDict as _TypedDict

T = _t.TypeVar("T")

DEFAULT_TIMEOUT = 60.0


class Selectors(_TypedDict, total=False):
    """Non-secret routing to an end user's OAuth connection; the Engine resolves the credential."""

    end_user_ref: str
    auth_type: _t.Literal["api_key", "oauth2"]
    auth_name: str
    resource_id: str


@dataclass(frozen=True)
class EnvelopeError:
    """Why a call failed: an Engine code (``ENGINE_*``), a provider code (``PROVIDER_*``) or ``TRANSPORT_UNAVAILABLE``."""

    code: str
    message: str
    retryable: bool
    details: _t.Optional[_t.Dict[str, _t.Any]] = None
    recovery: _t.Optional[_t.Dict[str, _t.Any]] = None


@dataclass(frozen=True)
class Envelope(_t.Generic[T]):
    """The result of every call. ``status`` is the provider's HTTP status when it answered, else the Engine's."""

    ok: bool
    status: int
    data: _t.Optional[T]
    error: _t.Optional[EnvelopeError]
    # Only when a caller bound (max_pages) stopped before the provider's last page:
    # {"more": True, "input": {...}?}, ``input`` being what to add to the same input to read on.
    continuation: _t.Optional[_t.Dict[str, _t.Any]] = None

    def to_dict(self) -> _t.Dict[str, _t.Any]:
        """The envelope as the Engine's REST endpoint returns it (JSON-ready)."""
        error: _t.Optional[_t.Dict[str, _t.Any]] = None
        if self.error is not None:
            error = {"code": self.error.code, "message": self.error.message, "retryable": self.error.retryable}
            if self.error.details is not None:
                error["details"] = self.error.details
            if self.error.recovery is not None:
                error["recovery"] = self.error.recovery
        out: _t.Dict[str, _t.Any] = {"ok": self.ok, "status": self.status, "data": self.data, "error": error}
        if self.continuation is not None:
            out["continuation"] = self.continuation
        return out


def _failure(status: int, code: str, message: str, retryable: bool, details: _t.Dict[str, _t.Any]) -> "Envelope[_t.Any]":
    return Envelope(ok=False, status=status, data=None, error=EnvelopeError(code=code, message=message, retryable=retryable, details=details))


def _parse_target(grpc_url: str) -> _t.Tuple[str, bool]:
    """``host:port``, ``http://host:port``, ``grpc://host:port`` (plaintext) or ``https://…``, ``grpcs://…`` (TLS)."""
    m = re.match(r"^(?:([a-zA-Z][a-zA-Z0-9+.-]*)://)?([^/?#]+)/?$", (grpc_url or "").strip())
    if not m:
        raise ValueError(f"grpc_url must be host:port or a grpc://, grpcs://, http:// or https:// URL (got {grpc_url!r})")
    scheme = (m.group(1) or "").lower()
    if scheme and scheme not in ("http", "https", "grpc", "grpcs"):
        raise ValueError(f"grpc_url: unsupported scheme {scheme!r}")
    tls = scheme in ("https", "grpcs")
    host_port = m.group(2)
    target = host_port if re.search(r":\d+$", host_port) else f"{host_port}:{443 if tls else 80}"
    return target, tls


class Runtime:
    def __init__(self, grpc_url: str, token: str, version_id: str, timeout: _t.Optional[float], options: _t.Sequence[_t.Tuple[str, _t.Any]]) -> None:
        # Checked here, never echoed: a header value gRPC cannot send would fail every call.
        if not isinstance(token, str) or not token or not all("\x21" <= c <= "\x7e" for c in token):
            raise ValueError("Client(grpc_url=..., token=...): token must be the SDK execution token (printable characters, no spaces or line breaks)")
        self._target, tls = _parse_target(grpc_url)
        channel_options = [("grpc.max_receive_message_length", -1), *options]
        if tls:
            self._channel = grpc.secure_channel(self._target, grpc.ssl_channel_credentials(), options=channel_options)
        else:
            self._channel = grpc.insecure_channel(self._target, options=channel_options)
        self._stub = engine_pb2_grpc.EngineStub(self._channel)
        self._metadata = (("authorization", f"Bearer {token}"),)
        self._version_id = version_id
        self._timeout = timeout
        self._closed = False

    def call(
        self,
        operation: str,
        input: _t.Optional[_t.Mapping[str, _t.Any]],
        max_pages: _t.Optional[int] = None,
        selectors: _t.Optional[Selectors] = None,
        timeout: _t.Optional[float] = None,
        idempotency_key: _t.Optional[str] = None,
        traceparent: _t.Optional[str] = None,
        tracestate: _t.Optional[str] = None,
    ) -> "Envelope[_t.Any]":
        if self._closed:
            return _failure(503, "TRANSPORT_UNAVAILABLE", "this client was closed; create a new one", False, {"grpc_status": "CANCELLED", "provider_execution": "not_started"})
        try:
            # ensure_ascii escapes a lone surrogate (as JSON.stringify does) instead of failing to encode it.
            input_json = "" if input is None else json.dumps(input, ensure_ascii=True, allow_nan=False, separators=(",", ":"))
        except (TypeError, ValueError, RecursionError) as err:
            return _failure(400, "ENGINE_INVALID_INPUT", f"input is not JSON-serialisable ({err})", False, {"field": "input", "provider_execution": "not_started"})
        # Arguments the request message cannot hold are the caller's to fix: an envelope, never an exception.
        if not isinstance(operation, str) or not operation:
            return _failure(400, "ENGINE_INVALID_INPUT", "operation must be a non-empty string", False, {"field": "operation", "provider_execution": "not_started"})
        try:
            request = engine_pb2.ExecuteRequest(version_id=self._version_id, operation=operation, input_json=input_json)
        except (TypeError, ValueError) as err:
            return _failure(400, "ENGINE_INVALID_INPUT", f"operation: {err}", False, {"field": "operation", "provider_execution": "not_started"})
        try:
            if max_pages is not None:
                if isinstance(max_pages, bool) or not isinstance(max_pages, int) or not 0 < max_pages < 2**31:
                    raise ValueError("max_pages must be a positive integer")
                request.pagination.CopyFrom(engine_pb2.Pagination(max_pages=max_pages))
        except (TypeError, ValueError) as err:
            return _failure(400, "ENGINE_PAGINATION_INVALID", f"max_pages: {err}", False, {"field": "pagination.maxPages", "provider_execution": "not_started"})
        try:
            if selectors is not None:
                request.selectors.CopyFrom(engine_pb2.Selectors(**{k: v for k, v in selectors.items() if v is not None}))
        except (TypeError, ValueError, AttributeError) as err:
            return _failure(400, "ENGINE_INVALID_INPUT", f"selectors take end_user_ref, auth_type, auth_name and resource_id as strings ({err})", False, {"field": "selectors", "provider_execution": "not_started"})
        deadline = self._timeout if timeout is None else timeout
        if deadline is not None and (isinstance(deadline, bool) or not isinstance(deadline, (int, float)) or not deadline > 0):
            return _failure(400, "ENGINE_INVALID_INPUT", "timeout must be a positive number of seconds", False, {"field": "timeout", "provider_execution": "not_started"})
        if deadline is not None and deadline > _MAX_TIMEOUT_S:
            deadline = None  # past what grpcio can schedule (inf included): no deadline
        metadata = self._metadata
        if idempotency_key is not None:
            # The Engine's rule (src/execution/idempotency.ts), checked here too: grpcio would raise on a value it cannot send.
            if not isinstance(idempotency_key, str) or not _IDEMPOTENCY_KEY.fullmatch(idempotency_key):
                return _failure(400, "ENGINE_INVALID_INPUT", "idempotency_key must be a string of 1 to 200 visible ASCII characters (no spaces)", False, {"field": "idempotencyKey", "provider_execution": "not_started"})
            metadata = (*metadata, ("idempotency-key", idempotency_key))
        if traceparent is not None and (not isinstance(traceparent, str) or not _TRACEPARENT.fullmatch(traceparent)):
            return _failure(400, "ENGINE_INVALID_INPUT", "traceparent must be a W3C traceparent: 00-<32 hex trace ID>-<16 hex span ID>-<2 hex flags>", False, {"field": "traceparent", "provider_execution": "not_started"})
        if tracestate is not None and (traceparent is None or not isinstance(tracestate, str) or not _TRACESTATE.fullmatch(tracestate)):
            return _failure(400, "ENGINE_INVALID_INPUT", "tracestate goes with a traceparent and is at most 512 printable ASCII characters", False, {"field": "tracestate", "provider_execution": "not_started"})
        metadata = (*metadata, *_trace_context(traceparent, tracestate))
        try:
            reply = self._stub.Execute(request, metadata=metadata, timeout=deadline)
        except grpc.RpcError as err:
            return self._transport_failure(err)
        except ValueError as err:  # a channel closed under the call
            return _failure(503, "TRANSPORT_UNAVAILABLE", f"the gRPC channel to {self._target} is closed ({err})", False, {"grpc_status": "CANCELLED", "provider_execution": "unknown"})
        try:
            error = None
            if reply.HasField("error"):
                e = reply.error
                error = EnvelopeError(
                    code=e.code,
                    message=e.message,
                    retryable=e.retryable,
                    details=json.loads(e.details_json) if e.HasField("details_json") else None,
                    recovery=json.loads(e.recovery_json) if e.HasField("recovery_json") else None,
                )
            continuation = json.loads(reply.continuation_json) if reply.HasField("continuation_json") else None
            return Envelope(ok=reply.ok, status=reply.status, data=json.loads(reply.data_json or "null"), error=error, continuation=continuation)
        except (ValueError, RecursionError) as err:  # RecursionError: JSON nested deeper than Python's stack
            # The call itself ran: a successful reply's provider work is done, whatever this side can read of it.
            done = "completed" if reply.ok else "unknown"
            return _failure(503, "TRANSPORT_UNAVAILABLE", f"the reply of the Engine's gRPC service at {self._target} could not be read ({err})", False, {"grpc_status": "INTERNAL", "provider_execution": done})

    def _transport_failure(self, err: grpc.RpcError) -> "Envelope[_t.Any]":
        code = err.code() if hasattr(err, "code") else grpc.StatusCode.UNKNOWN
        name = code.name if code is not None else "UNKNOWN"
        reason = err.details() if hasattr(err, "details") else str(err)
        if code == grpc.StatusCode.RESOURCE_EXHAUSTED:
            # This client sets no receive limit: it is the Engine refusing the request message (as REST's 413).
            return _failure(413, "ENGINE_INPUT_TOO_LARGE", f"the Engine refused the request as too large ({reason or name}); send a smaller input", False, {"grpc_status": name, "provider_execution": "not_started"})
        return _failure(
            504 if code == grpc.StatusCode.DEADLINE_EXCEEDED else 503,
            "TRANSPORT_UNAVAILABLE",
            f"the Engine's gRPC service at {self._target} could not complete the call ({name}: {reason or name})",
            code == grpc.StatusCode.UNAVAILABLE,
            {"grpc_status": name, "provider_execution": "unknown"},
        )

    def close(self) -> None:
        self._closed = True
        self._channel.close()
