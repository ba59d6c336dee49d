// Words for a POSIX shell command line the Engine prints for people to paste (svc-cli commands in
// connection hints, install lines in generated READMEs). svc-cli keeps its own copy
// (cli/lib/output.ts): it talks to the Engine over HTTP and imports nothing from src/.

/** A shell word in single quotes. */
export const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** A shell word, quoted only when it holds a character the shell would read. */
export const shellWord = (text: string): string => (/^[A-Za-z0-9_@%+=:,.\/-]+$/.test(text) ? text : shellQuote(text));
