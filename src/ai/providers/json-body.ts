// A request body as UTF-8 chunks of JSON, the same bytes `JSON.stringify` gives, without ever making
// the whole text as one string. A 20,000-message session is a ~40 MiB request: one `JSON.stringify`
// of it is an 80 MiB string (two bytes a character once any character is not Latin-1) in V8's
// large-object space, then node:http copies it into a 40 MiB Buffer to write it. Both are old-space
// garbage the moment the request is sent, and V8 lets a heap that size grow to ~1 GiB before a full
// collection (bench/RESULTS.md, "Memory in a long session"). Here each element of the body's arrays
// (a message, a tool) is stringified alone, so every string is small and dies young, and the bytes
// live outside the JS heap only until the socket has taken them. A run of elements whose bytes are
// already known (a transcript's earlier messages, wire-history.ts) is written as those bytes.

/** A serialised body: its chunks, in order, and their total length in bytes. */
export interface JsonBody {
	readonly chunks: readonly Buffer[];
	readonly bytes: number;
}

/** Text gathered before it becomes one chunk: well under V8's large-object size (128 KiB). */
const CHUNK_CHARS = 16 * 1024;

/**
 * `JSON.stringify(value)` as UTF-8 chunks. A plain object's array members are written one element at
 * a time; everything else goes through `JSON.stringify` whole, so the bytes are exactly its bytes
 * (`toJSON` gets the key it would get there). Throws what `JSON.stringify` throws (a cycle, a BigInt);
 * a value `JSON.stringify` turns into `undefined` is an error here, as a body must be JSON.
 */
export function jsonBody(value: unknown): JsonBody {
	const chunks: Buffer[] = [];
	let bytes = 0;
	let text = "";
	const push = (chunk: Buffer): void => {
		chunks.push(chunk);
		bytes += chunk.length;
	};
	const flush = (): void => {
		if (text === "") return;
		push(Buffer.from(text, "utf8"));
		text = "";
	};
	const writer: Writer = {
		put: (piece) => {
			text += piece;
			if (text.length >= CHUNK_CHARS) flush();
		},
		putBytes: (chunk) => {
			flush();
			push(chunk);
		},
	};
	if (isPlainObject(value)) writeObject(value, writer);
	else writer.put(stringifyAt(value, ""));
	flush();
	return { chunks, bytes };
}

interface Writer {
	put(piece: string): void;
	/** Bytes already made: a chunk of their own. */
	putBytes(chunk: Buffer): void;
}

/** Elements of an array whose JSON is known: `count` of them from `from`, joined by commas, in `chunks`. */
interface KnownRun {
	readonly from: number;
	readonly count: number;
	readonly chunks: readonly Buffer[];
}

/** Arrays with a run of elements already serialised (wire-history.ts): a transcript's kept messages. */
const knownRuns = new WeakMap<readonly unknown[], KnownRun>();

/**
 * Freezes `array` and records that its elements `[from, from + count)`, joined by commas, are the bytes
 * of `chunks`: jsonBody writes those instead of serialising the elements again. Frozen, so the array
 * cannot change under the record; its elements must be frozen too (the caller's part). Returns `array`.
 */
export function withKnownJson<T>(array: T[], from: number, count: number, chunks: readonly Buffer[]): T[] {
	Object.freeze(array);
	if (count > 0) knownRuns.set(array, { from, count, chunks });
	return array;
}

function writeObject(object: Record<string, unknown>, { put, ...writer }: Writer): void {
	put("{");
	let first = true;
	for (const key of Object.keys(object)) {
		const member = withToJson(object[key], key);
		const text = Array.isArray(member) ? "" : JSON.stringify(member);
		// Members JSON.stringify leaves out: undefined, functions, symbols.
		if (text === undefined) continue;
		put(`${first ? "" : ","}${JSON.stringify(key)}:${text}`);
		first = false;
		if (Array.isArray(member)) writeArray(member, { put, ...writer });
	}
	put("}");
}

function writeArray(array: readonly unknown[], { put, putBytes }: Writer): void {
	put("[");
	// Only while frozen: an array changed since its run was recorded would be sent as it was.
	const known = Object.isFrozen(array) ? knownRuns.get(array) : undefined;
	for (let i = 0; i < array.length; i++) {
		if (known && i === known.from && known.from + known.count <= array.length) {
			if (i > 0) put(",");
			for (const chunk of known.chunks) putBytes(chunk);
			i += known.count - 1;
			continue;
		}
		// An element JSON.stringify cannot write (undefined, a function) is `null` in an array.
		const text = JSON.stringify(withToJson(array[i], String(i))) ?? "null";
		put(i === 0 ? text : `,${text}`);
	}
	put("]");
}

function stringifyAt(value: unknown, key: string): string {
	const text = JSON.stringify(withToJson(value, key));
	if (text === undefined) throw new TypeError("request body is not JSON");
	return text;
}

/** What JSON.stringify serialises for `value` under `key`: the result of its `toJSON(key)` when it has one. */
function withToJson(value: unknown, key: string): unknown {
	const toJSON = (value as { toJSON?: unknown } | null | undefined)?.toJSON;
	return typeof toJSON === "function" ? toJSON.call(value, key) : value;
}

/** An object JSON.stringify writes member by member: no `toJSON`, not an array, not boxed. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
	if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
	const proto = Object.getPrototypeOf(value);
	return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== "function";
}
