// The Python modules of a .proto file without protoc or grpc_tools: `<name>_pb2.py` and
// `<name>_pb2_grpc.py` from the descriptor set `buf build` writes (templates/grpc/). The output is
// the one Debian's protoc 3.21 and grpc_tools 1.14 gave, byte for byte, for the features
// spec/engine.proto uses; anything else (imports, options, extensions) is refused rather than
// rendered differently. The stub imports its sibling relatively (`from . import`): both ship inside
// the Python packages (src/sdkgen/python.ts).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { clearField, clone, fromBinary, toBinary } from '@bufbuild/protobuf';
import {
  DescriptorProtoSchema,
  EnumDescriptorProtoSchema,
  FieldDescriptorProtoSchema,
  FileDescriptorProtoSchema,
  FileDescriptorSetSchema,
  ServiceDescriptorProtoSchema,
  type DescriptorProto,
  type EnumDescriptorProto,
  type FileDescriptorProto,
} from '@bufbuild/protobuf/wkt';
import Handlebars from 'handlebars';

const TEMPLATES = resolve(import.meta.dirname, '../../templates/grpc');

export interface PythonModules {
  pb2: string;
  grpc: string;
}

/** Renders the Python modules of `fileName` (e.g. `engine.proto`) from a `buf build` descriptor set. */
export function pythonModules(descriptorSet: Uint8Array, fileName: string): PythonModules {
  const file = fromBinary(FileDescriptorSetSchema, descriptorSet).file.find((f) => f.name === fileName);
  if (!file) throw new Error(`gen: ${fileName} is not in the descriptor set`);
  refuseUnsupported(file);
  const serialized = serializedAsProtoc(file);
  const module = fileName.replace(/\.proto$/, '').replace(/[-/]/g, (c) => (c === '/' ? '.' : '_')) + '_pb2';
  const alias = module.replace(/_/g, '__').replace(/\./g, '_dot_');
  const hb = Handlebars.create();
  const render = (name: string, context: object) => hb.compile(readFileSync(resolve(TEMPLATES, name), 'utf8'), { noEscape: true, strict: true })(context);
  return {
    pb2: render('pb2.py.hbs', { source: fileName, module, serialized: cHexEscape(serialized), intervals: intervals(file, serialized) }),
    grpc: render('pb2_grpc.py.hbs', { module, alias, services: services(file, alias) }),
  };
}

function refuseUnsupported(file: FileDescriptorProto) {
  const found: string[] = [];
  if (file.dependency.length) found.push(`imports (${file.dependency.join(', ')})`);
  if (file.extension.length) found.push('extensions');
  if (file.options) found.push('file options');
  const message = (m: DescriptorProto) => {
    if (m.options || m.field.some((f) => f.options) || m.oneofDecl.some((o) => o.options)) found.push(`options in ${m.name}`);
    if (m.extension.length) found.push(`extensions in ${m.name}`);
    m.nestedType.forEach(message);
    m.enumType.forEach(enumeration);
  };
  const enumeration = (e: EnumDescriptorProto) => {
    if (e.options || e.value.some((v) => v.options)) found.push(`options in ${e.name}`);
  };
  file.messageType.forEach(message);
  file.enumType.forEach(enumeration);
  for (const s of file.service) if (s.options || s.method.some((m) => m.options)) found.push(`options in ${s.name}`);
  if (found.length) throw new Error(`gen: ${file.name} uses ${found.join(', ')}, which src/codegen/python-grpc.ts does not render`);
}

/**
 * The FileDescriptorProto as protoc embeds it (FileDescriptor::CopyTo): no source info, no JSON
 * names, and none of the fields buf adds of its own (unknown to descriptor.proto).
 */
function serializedAsProtoc(file: FileDescriptorProto): Uint8Array {
  const copy = clone(FileDescriptorProtoSchema, file);
  clearField(copy, FileDescriptorProtoSchema.field.sourceCodeInfo);
  copy.$unknown = undefined;
  const message = (m: DescriptorProto) => {
    for (const f of m.field) clearField(f, FieldDescriptorProtoSchema.field.jsonName);
    m.nestedType.forEach(message);
  };
  copy.messageType.forEach(message);
  return toBinary(FileDescriptorProtoSchema, copy);
}

/** Bytes as a Python bytes literal's body, escaped as protoc does (absl::CHexEscape). */
function cHexEscape(bytes: Uint8Array): string {
  const named: Record<number, string> = { 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t', 0x22: '\\"', 0x27: "\\'", 0x5c: '\\\\' };
  let out = '';
  let lastHex = false;
  for (const b of bytes) {
    const c = String.fromCharCode(b);
    // A hex digit right after \xNN is escaped too, or it would extend that escape.
    const hex: boolean = !named[b] && (b < 0x20 || b > 0x7e || (lastHex && /[0-9a-fA-F]/.test(c)));
    out += named[b] ?? (hex ? `\\x${b.toString(16).padStart(2, '0')}` : c);
    lastHex = hex;
  }
  return out;
}

interface Interval {
  name: string;
  start: number;
  end: number;
}

/** Where each descriptor sits in the serialized file, in protoc's order: enums, messages (nested first-in), services. */
function intervals(file: FileDescriptorProto, serialized: Uint8Array): Interval[] {
  const bytes = Buffer.from(serialized);
  const out: Interval[] = [];
  const at = (path: string[], part: Uint8Array) => {
    const start = bytes.indexOf(part);
    out.push({ name: `_${path.join('_').toUpperCase()}`, start, end: start + part.length });
  };
  const enumeration = (path: string[], e: EnumDescriptorProto) => at([...path, e.name], toBinary(EnumDescriptorProtoSchema, e));
  const message = (path: string[], m: DescriptorProto) => {
    const here = [...path, m.name];
    at(here, toBinary(DescriptorProtoSchema, m));
    for (const n of m.nestedType) message(here, n);
    for (const e of m.enumType) enumeration(here, e);
  };
  // Compare against the copy protoc serializes: the same messages without their JSON names.
  const copy = fromBinary(FileDescriptorProtoSchema, serialized);
  for (const e of copy.enumType) enumeration([], e);
  for (const m of copy.messageType) message([], m);
  for (const s of copy.service) at([s.name], toBinary(ServiceDescriptorProtoSchema, s));
  return out;
}

/** The services with their methods and comments, as grpc_tools' stub generator walks them. */
function services(file: FileDescriptorProto, alias: string) {
  const prefix = file.package ? `${file.package}.` : '';
  const typeName = (name: string) => `${alias}.${name.replace(/^\./, '').slice(prefix.length)}`;
  return file.service.map((s, i) => ({
    name: s.name,
    fullName: prefix + s.name,
    doc: docstring(comments(file, [6, i]), '  '),
    methods: s.method.map((m, j) => ({
      name: m.name,
      kind: `${m.clientStreaming ? 'stream' : 'unary'}_${m.serverStreaming ? 'stream' : 'unary'}`,
      argument: m.clientStreaming ? 'request_iterator' : 'request',
      input: typeName(m.inputType),
      output: typeName(m.outputType),
      doc: docstring(comments(file, [6, i, 2, j]), '    '),
    })),
  }));
}

/** The comment lines of the element at `path`: detached blocks (each followed by a blank line), leading, trailing. */
function comments(file: FileDescriptorProto, path: number[]): string[] {
  const location = file.sourceCodeInfo?.location.find((l) => l.path.length === path.length && l.path.every((p, k) => p === path[k]));
  if (!location) return [];
  const split = (text: string | undefined) => (text ? text.replace(/\n$/, '').split('\n') : []);
  return [...location.leadingDetachedComments.flatMap((block) => [...split(block), '']), ...split(location.leadingComments), ...split(location.trailingComments)];
}

/** A Python body's documentation at `indent`: the comment lines as a docstring, else a placeholder and `pass`. */
function docstring(lines: string[], indent: string): string {
  if (!lines.length) return `${indent}# missing associated documentation comment in .proto file\n${indent}pass`;
  const text = lines.map((line) => line.replace(/^ +/, '').replace(/\\/g, '\\\\').replace(/"""/g, '\\"\\"\\"'));
  text[0] = `"""${text[0]}`;
  text.push('"""');
  return text.map((line) => (line ? indent + line : '')).join('\n');
}
