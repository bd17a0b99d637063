// Strict JSON Lines framing for the rpc mode: records end at LF only. `node:readline` also splits on
// U+2028 / U+2029 (and lone CR), which are legal inside JSON strings, so it would cut commands apart.
// A trailing CR is dropped (CRLF clients), UTF-8 characters split across chunks are joined, and a
// last line without a newline still counts.
import { StringDecoder } from "node:string_decoder";

/** Yields each line of `input` (Buffers or strings) without its terminator. */
export async function* readJsonlLines(input: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
	const decoder = new StringDecoder("utf8");
	let buffer = "";
	for await (const chunk of input) {
		buffer += typeof chunk === "string" ? chunk : decoder.write(chunk);
		let start = 0;
		for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n", start)) {
			yield stripCr(buffer.slice(start, nl));
			start = nl + 1;
		}
		// One slice per chunk, not per line: a chunk of many short lines stays linear.
		if (start > 0) buffer = buffer.slice(start);
	}
	buffer += decoder.end();
	if (buffer.length > 0) yield stripCr(buffer);
}

function stripCr(line: string): string {
	return line.endsWith("\r") ? line.slice(0, -1) : line;
}
