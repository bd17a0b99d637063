// Tool-call arguments arrive as JSON text split across many deltas. The UI wants the arguments while
// they stream, but re-parsing the whole buffer on every delta is quadratic in the argument size (a
// `write` of a 50 KB file arrives in thousands of deltas). `StreamingJson` re-parses only when the
// buffer has grown by a fixed fraction, which keeps the total work linear.
//
// The repair is for the live display only. What a tool runs with comes from `parseToolArguments`,
// which accepts nothing but complete JSON: a call whose arguments were cut off (a dropped connection,
// a server that ends the stream early) must never run with a shorter path or command.

/**
 * Parses possibly-truncated JSON into an object: closes open strings, arrays and objects, drops a
 * dangling key or partial literal. Always returns an object (`{}` when nothing usable is there yet).
 */
export function parseStreamingJson(text: string | undefined): Record<string, any> {
	if (!text?.trim()) return {};
	try {
		const value = JSON.parse(text);
		return isRecord(value) ? value : {};
	} catch {
		// fall through to repair
	}
	const repaired = repairTruncatedJson(text);
	if (repaired === undefined) return {};
	try {
		const value = JSON.parse(repaired);
		return isRecord(value) ? value : {};
	} catch {
		return {};
	}
}

export interface ParsedToolArguments {
	/** The arguments; when `error` is set, the repaired partial value, for display only. */
	arguments: Record<string, any>;
	/** Why the text is not a complete JSON object (the JSON parser's message). */
	error?: string;
}

/** Strict parse of a tool call's final argument text; empty text is `{}` (a call without arguments). */
export function parseToolArguments(text: string): ParsedToolArguments {
	if (!text.trim()) return { arguments: {} };
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
		return { arguments: parseStreamingJson(text), error: reason };
	}
	if (isRecord(value)) return { arguments: value };
	const kind = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
	return { arguments: {}, error: `the arguments must be a JSON object, not ${kind}` };
}

function isRecord(value: unknown): value is Record<string, any> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Returns `text` completed into syntactically closed JSON, or undefined when it cannot be. */
function repairTruncatedJson(text: string): string | undefined {
	const closers: string[] = [];
	let inString = false;
	let escaped = false;
	// Position after the last complete value, where a cut leaves valid JSON once closers are added.
	let lastSafe = -1;
	let safeClosers: string[] = [];
	for (let i = 0; i < text.length; i++) {
		const ch = text[i];
		if (inString) {
			if (escaped) escaped = false;
			else if (ch === "\\") escaped = true;
			else if (ch === '"') inString = false;
			continue;
		}
		if (ch === '"') inString = true;
		else if (ch === "{") closers.push("}");
		else if (ch === "[") closers.push("]");
		else if (ch === "}" || ch === "]") {
			closers.pop();
		}
		if (ch === "," || ch === "{" || ch === "[") {
			lastSafe = ch === "," ? i : i + 1;
			safeClosers = closers.slice();
		}
	}
	let body = text;
	if (inString) {
		// Keep a partial string value (useful: file content while it streams), but not a dangling escape.
		if (escaped) body = body.slice(0, -1);
		body = body.replace(/\\u[0-9a-fA-F]{0,3}$/, "");
		body += '"';
		const attempt = body + closers.slice().reverse().join("");
		if (isValidJson(attempt)) return attempt;
	} else {
		const attempt = body + closers.slice().reverse().join("");
		if (isValidJson(attempt)) return attempt;
	}
	// Cut back to the last structural boundary: drops a dangling key, colon or partial literal.
	if (lastSafe < 0) return undefined;
	const cut = text.slice(0, lastSafe).replace(/,\s*$/, "");
	return cut + safeClosers.slice().reverse().join("");
}

function isValidJson(text: string): boolean {
	try {
		JSON.parse(text);
		return true;
	} catch {
		return false;
	}
}

/** Accumulates argument deltas; `value` is re-parsed only after the buffer grew by a quarter. */
export class StreamingJson {
	private text = "";
	private parsedLength = -1;
	private parsed: Record<string, any> = {};

	append(delta: string): Record<string, any> {
		this.text += delta;
		if (this.parsedLength < 0 || this.text.length < 256 || this.text.length >= this.parsedLength * 1.25) {
			this.parsed = parseStreamingJson(this.text);
			this.parsedLength = this.text.length;
		}
		return this.parsed;
	}

	/** The complete text parsed once more, at the end of the call. */
	finish(): Record<string, any> {
		this.parsed = parseStreamingJson(this.text);
		this.parsedLength = this.text.length;
		return this.parsed;
	}

	get raw(): string {
		return this.text;
	}
}
