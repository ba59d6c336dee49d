// The Python modules npm run gen renders without protoc (src/codegen/python-grpc.ts): engine.proto
// gives the committed generated/python/ byte for byte, other shapes of service render as grpc_tools
// laid them out, and what the renderer does not know is refused.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pythonModules } from '../../src/codegen/python-grpc.ts';

const REPO = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'svc-python-grpc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `buf build` of one .proto file, as npm run gen runs it. */
function descriptorSet(name: string, source: string): Uint8Array {
  writeFileSync(join(dir, name), source);
  const out = join(dir, `${name}.binpb`);
  execFileSync(join(REPO, 'node_modules/.bin/buf'), ['build', dir, '--path', join(dir, name), '-o', out], { stdio: 'pipe' });
  return readFileSync(out);
}

describe('the Python modules of a .proto file', () => {
  it('are the committed generated/python/ for spec/engine.proto', () => {
    const set = descriptorSet('engine.proto', readFileSync(join(REPO, 'spec/engine.proto'), 'utf8'));
    const modules = pythonModules(set, 'engine.proto');
    expect(modules.pb2).toBe(readFileSync(join(REPO, 'generated/python/engine_pb2.py'), 'utf8'));
    expect(modules.grpc).toBe(readFileSync(join(REPO, 'generated/python/engine_pb2_grpc.py'), 'utf8'));
  });

  it('render streaming methods, a documented service and nested messages', () => {
    const set = descriptorSet(
      'chat.proto',
      [
        'syntax = "proto3";',
        'package demo.v1;',
        '// Talks back.',
        '//',
        '// Second paragraph.',
        'service Chat {',
        '  rpc Listen(Outer.Inner) returns (stream Outer);',
        '  // Sends many.',
        '  rpc Send(stream Outer) returns (Outer.Inner);',
        '}',
        'message Outer { message Inner { string text = 1; } enum Kind { KIND_UNSPECIFIED = 0; } Inner inner = 1; Kind kind = 2; }',
        '',
      ].join('\n'),
    );
    const { pb2, grpc } = pythonModules(set, 'chat.proto');
    expect(pb2).toContain("_builder.BuildTopDescriptorsAndMessages(DESCRIPTOR, 'chat_pb2', globals())");
    expect(pb2.match(/^ {2}_\w+(?=\._serialized_start)/gm)).toEqual(['  _OUTER', '  _OUTER_INNER', '  _OUTER_KIND', '  _CHAT']);
    expect(grpc).toContain('from . import chat_pb2 as chat__pb2\n');
    expect(grpc).toContain('class ChatStub(object):\n  """Talks back.\n\n  Second paragraph.\n  """\n\n  def __init__(self, channel):');
    expect(grpc).toContain("    self.Listen = channel.unary_stream(\n        '/demo.v1.Chat/Listen',\n        request_serializer=chat__pb2.Outer.Inner.SerializeToString,\n        response_deserializer=chat__pb2.Outer.FromString,\n        )\n");
    expect(grpc).toContain('  def Listen(self, request, context):\n    # missing associated documentation comment in .proto file\n    pass\n    context.set_code');
    expect(grpc).toContain('  def Send(self, request_iterator, context):\n    """Sends many.\n    """\n');
    expect(grpc).toContain("      'Send': grpc.stream_unary_rpc_method_handler(\n          servicer.Send,\n          request_deserializer=chat__pb2.Outer.FromString,\n");
  });

  it('refuses imports and options, which it does not render', () => {
    const set = descriptorSet('opts.proto', 'syntax = "proto3";\nimport "google/protobuf/empty.proto";\noption java_package = "x";\nmessage M { google.protobuf.Empty e = 1; }\n');
    expect(() => pythonModules(set, 'opts.proto')).toThrow('gen: opts.proto uses imports (google/protobuf/empty.proto), file options, which src/codegen/python-grpc.ts does not render');
  });
});
