// Closeness in meaning without what every operation of a catalogue means: the mean of their
// meanings points where all of them do ("get", "list", "API", the catalogue's own domain), so a
// query near it is near every operation alike. Taking a share of that direction out of each meaning
// and out of the query's leaves what tells operations apart (the "common component" removal of
// smooth-inverse-frequency sentence embeddings). Docs: docs/search.md.

/** The unit direction of the mean of unit vectors; undefined when there are none or they cancel out. */
export function commonDirection(meanings: readonly (Float32Array | undefined)[]): Float32Array | undefined {
  let sum: Float32Array | undefined;
  for (const m of meanings) {
    if (!m) continue;
    sum ??= new Float32Array(m.length);
    for (let d = 0; d < m.length; d++) sum[d]! += m[d]!;
  }
  return sum && unitLength(sum);
}

/** `meaning` with `share` of its projection on `direction` taken out, unit length again. */
export function withoutCommon(meaning: Float32Array, direction: Float32Array, share: number): Float32Array | undefined {
  let along = 0;
  for (let d = 0; d < meaning.length; d++) along += meaning[d]! * direction[d]!;
  const rest = new Float32Array(meaning.length);
  for (let d = 0; d < meaning.length; d++) rest[d] = meaning[d]! - share * along * direction[d]!;
  return unitLength(rest);
}

/** `vector` scaled in place to unit length; undefined when it has none. */
export function unitLength(vector: Float32Array): Float32Array | undefined {
  let squares = 0;
  for (let d = 0; d < vector.length; d++) squares += vector[d]! * vector[d]!;
  if (!(squares > 0)) return undefined;
  const norm = Math.sqrt(squares);
  for (let d = 0; d < vector.length; d++) vector[d]! /= norm;
  return vector;
}
