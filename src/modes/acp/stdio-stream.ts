// The ACP connection's bytes: newline-delimited JSON-RPC on stdin and stdout. Every line the agent
// writes passes through the same guard as json and rpc output (`jsonOutputLine`: known secrets
// redacted, raw C1/bidi/line-separator characters escaped), so no message — a streamed chunk, a tool
// result, an error — carries a key or a control sequence to the editor.
import type { Readable } from "node:stream";
import { Readable as NodeReadable } from "node:stream";
import type { ndJsonStream, Stream } from "@agentclientprotocol/sdk";
import { jsonOutputLine } from "../json.js";

export interface AcpIo {
	stdin: Readable;
	stdout: { write(text: string): void };
}

/** `toMessages` is the SDK's `ndJsonStream` (passed in: the SDK is imported only once acp mode runs). */
export function acpStream(io: AcpIo, toMessages: typeof ndJsonStream): Stream {
	const decoder = new TextDecoder();
	let pending = "";
	const output = new WritableStream<Uint8Array>({
		write(bytes) {
			pending += decoder.decode(bytes, { stream: true });
			for (let newline = pending.indexOf("\n"); newline >= 0; newline = pending.indexOf("\n")) {
				const line = pending.slice(0, newline);
				pending = pending.slice(newline + 1);
				if (line.trim() !== "") io.stdout.write(jsonOutputLine(JSON.parse(line)));
			}
		},
	});
	const input = NodeReadable.toWeb(io.stdin) as ReadableStream<Uint8Array>;
	return toMessages(output, input);
}
