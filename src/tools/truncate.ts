// Head/tail truncation of tool output by lines and bytes. Tools cap what reaches the model so that one
// large file or noisy command cannot fill the context window; the notes they append say how to get more.

/** Most lines a tool returns in one result. */
export const DEFAULT_MAX_LINES = 2000;
/** Most bytes (UTF-8) a tool returns in one result. */
export const DEFAULT_MAX_BYTES = 50 * 1024;
/** Longest single line `read` returns before cutting it. */
export const MAX_LINE_CHARS = 2000;

export interface TruncationOptions {
	/** Line cap; default `DEFAULT_MAX_LINES`. */
	maxLines?: number;
	/** Byte cap; default `DEFAULT_MAX_BYTES`. */
	maxBytes?: number;
}

export interface TruncationResult {
	/** The kept text, whole lines joined by "\n" (only a tail cut may start mid-line). */
	content: string;
	truncated: boolean;
	/** Which cap cut the text first, or null when nothing was cut. */
	truncatedBy: "lines" | "bytes" | null;
	totalLines: number;
	totalBytes: number;
	outputLines: number;
	outputBytes: number;
	/** Tail cut only: the one kept line was longer than the byte cap and only its end is kept. */
	lastLinePartial: boolean;
	/** Head cut only: the first line alone is over the byte cap, so nothing is kept. */
	firstLineExceedsLimit: boolean;
	maxLines: number;
	maxBytes: number;
}

const byteLength = (s: string): number => Buffer.byteLength(s, "utf8");

/** Keeps the first lines that fit both caps (for `read`: the model continues with an offset). */
export function truncateHead(text: string, options: TruncationOptions = {}): TruncationResult {
	const { lines, maxLines, maxBytes, base, whole } = measure(text, options);
	if (whole) return whole;
	if (byteLength(lines[0] ?? "") > maxBytes) {
		return { ...base, content: "", truncated: true, truncatedBy: "bytes", outputLines: 0, outputBytes: 0, firstLineExceedsLimit: true };
	}
	const { count, bytes, truncatedBy } = countFittingLines(lines, maxLines, maxBytes, "start");
	const content = lines.slice(0, count).join("\n");
	return { ...base, content, truncated: true, truncatedBy, outputLines: count, outputBytes: bytes };
}

/** Keeps the last lines that fit both caps (for `bash`: errors and summaries come at the end). */
export function truncateTail(text: string, options: TruncationOptions = {}): TruncationResult {
	const { lines, maxLines, maxBytes, base, whole } = measure(text, options);
	if (whole) return whole;
	const { count, bytes, truncatedBy } = countFittingLines(lines, maxLines, maxBytes, "end");
	if (count === 0) {
		// The last line alone is over the cap: keep its end, cut on a character boundary.
		const content = tailBytes(lines[lines.length - 1] ?? "", maxBytes);
		return {
			...base,
			content,
			truncated: true,
			truncatedBy: "bytes",
			outputLines: 1,
			outputBytes: byteLength(content),
			lastLinePartial: true,
		};
	}
	const content = lines.slice(lines.length - count).join("\n");
	return { ...base, content, truncated: true, truncatedBy, outputLines: count, outputBytes: bytes };
}

/** What both cuts start from: the caps in force, the text's lines and size, and the result when it fits whole. */
function measure(text: string, options: TruncationOptions) {
	const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
	const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
	const totalBytes = byteLength(text);
	const lines = text.split("\n");
	const base = { totalLines: lines.length, totalBytes, maxLines, maxBytes, lastLinePartial: false, firstLineExceedsLimit: false };
	const whole: TruncationResult | undefined =
		lines.length <= maxLines && totalBytes <= maxBytes
			? { ...base, content: text, truncated: false, truncatedBy: null, outputLines: lines.length, outputBytes: totalBytes }
			: undefined;
	return { lines, maxLines, maxBytes, base, whole };
}

/** How many whole lines from one end fit both caps, their bytes (with the newlines between), and which cap stopped them. */
function countFittingLines(
	lines: string[],
	maxLines: number,
	maxBytes: number,
	from: "start" | "end",
): { count: number; bytes: number; truncatedBy: "lines" | "bytes" } {
	let bytes = 0;
	let count = 0;
	while (count < lines.length && count < maxLines) {
		const line = lines[from === "start" ? count : lines.length - 1 - count] ?? "";
		const cost = byteLength(line) + (count > 0 ? 1 : 0);
		if (bytes + cost > maxBytes) return { count, bytes, truncatedBy: "bytes" };
		bytes += cost;
		count++;
	}
	return { count, bytes, truncatedBy: "lines" };
}

/** The last `maxBytes` bytes of `text`, never splitting a UTF-8 character. */
function tailBytes(text: string, maxBytes: number): string {
	const buf = Buffer.from(text, "utf8");
	let start = Math.max(0, buf.length - maxBytes);
	// Continuation bytes look like 10xxxxxx; step forward to the start of a character.
	while (start < buf.length && ((buf[start] ?? 0) & 0xc0) === 0x80) start++;
	return buf.subarray(start).toString("utf8");
}

/** Cuts one line to `maxChars`, saying how long it was. */
export function truncateLine(line: string, maxChars: number): { text: string; wasTruncated: boolean } {
	if (line.length <= maxChars) return { text: line, wasTruncated: false };
	return { text: `${line.slice(0, maxChars)}... [line truncated, ${line.length} chars]`, wasTruncated: true };
}

/** "512B", "12.3KB", "4.0MB": sizes in notes the model reads. */
export function formatSize(bytes: number): string {
	if (bytes < 1024) return `${bytes}B`;
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
	return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}
