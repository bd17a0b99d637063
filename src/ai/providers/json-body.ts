// A request body as UTF-8 chunks of JSON, the same bytes `JSON.stringify` gives, without ever making
// the whole text as one string. A 20,000-message session is a ~40 MiB request: one `JSON.stringify`
// of it is an 80 MiB string (two bytes a character once any character is not Latin-1) in V8's
// large-object space, then node:http copies it into a 40 MiB Buffer to write it. Both are old-space
// garbage the moment the request is sent, and V8 lets a heap that size grow to ~1 GiB before a full
// collection (bench/RESULTS.md, "Memory in a long session"). Here each element of the body's arrays
// (a message, a tool) is stringified alone, so every string is small and dies young, and the bytes
// live outside the JS heap only until the socket has taken them.

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

/**
 * The bytes of frozen array elements (converted-messages.ts: a transcript message's wire form, sent
 * again by every later request), made once with a comma before them; gone with the element.
 */
const elementBytes = new WeakMap<object, Buffer>();

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
	for (let i = 0; i < array.length; i++) {
		const element = array[i];
		const known = (isPlainObject(element) || Array.isArray(element)) && Object.isFrozen(element);
		// Kept with the comma that goes before every element but the first: one chunk per element.
		let withComma = known ? elementBytes.get(element) : undefined;
		if (!withComma) {
			// An element JSON.stringify cannot write (undefined, a function) is `null` in an array.
			const text = JSON.stringify(withToJson(element, String(i))) ?? "null";
			if (!known) {
				put(i === 0 ? text : `,${text}`);
				continue;
			}
			withComma = ownBytes(`,${text}`);
			elementBytes.set(element, withComma);
		}
		putBytes(i === 0 ? withComma.subarray(1) : withComma);
	}
	put("]");
}

/**
 * `text` as UTF-8 in a buffer of its own. Not `Buffer.from`: a short string goes into Node's shared 8 KiB
 * pool, and a cached slice kept for the whole session would keep its slab alive with whatever else was
 * cut from it (a soak of 3,000 calls held 26 MiB of ArrayBuffers for ~5 MiB of cached bytes).
 */
function ownBytes(text: string): Buffer {
	const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text, "utf8"));
	bytes.write(text, "utf8");
	return bytes;
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
