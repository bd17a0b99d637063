// Takes a response's body bytes straight from Node's HTTP parser, before they become a stream push.
// Per socket read the parser calls the body callback it holds in the slot `HTTPParser.kOnBody`
// (node:_http_common's parserOnBody), which pushes the bytes into the IncomingMessage: a
// readableAddChunk, a 'data' emit, a StringDecoder pass and a maybeReadMore on the next tick, all for
// a paced body (http-post.ts) that only appends them to its burst. With the slot swapped for the
// paced response the bytes go to the body directly; the IncomingMessage sees an empty body and still
// does everything else (message complete, end, errors, the socket back to the pool), as the parser's
// other callbacks are untouched (docs/streaming.md, "Paced socket reads").
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";

/** The part of Node's HTTPParser (node:_http_common) the tap relies on. */
interface BodyParser {
	incoming: unknown;
	socket: unknown;
	[slot: number]: unknown;
}

type OnBody = (this: BodyParser, bytes: Buffer) => void;

/**
 * Sends the body bytes of `response` to `onBytes` instead of the stream, from now on. Returns the undo,
 * or undefined (nothing changed) when the parser is not the one this was written for (Node 20's:
 * `socket.parser`, its class's `kOnBody`, a `parserOnBody` in it, `incoming` being this response), or
 * when the response already has an encoding or a consumer of its own.
 */
export function tapBody(response: IncomingMessage, onBytes: (bytes: Buffer) => void): (() => void) | undefined {
	const socket = response.socket as (Socket & { parser?: BodyParser | null }) | null;
	const parser = socket?.parser;
	if (!parser || parser.incoming !== response || parser.socket !== socket) return undefined;
	const slot = (parser.constructor as { kOnBody?: unknown }).kOnBody;
	if (typeof slot !== "number") return undefined;
	const original = parser[slot];
	if (typeof original !== "function" || original.name !== "parserOnBody") return undefined;
	if (response.readableEncoding !== null || response.readableFlowing !== null || response.listenerCount("data") > 0) {
		return undefined;
	}
	const parserOnBody = original as OnBody;
	const restore = () => {
		if (parser[slot] === onBody) parser[slot] = parserOnBody;
	};
	// Parsers are pooled (node:_http_common's `parsers`) and freed in the read that completes the
	// message, before the response's 'end' reaches the body's undo: a parser met serving another
	// response puts Node's own callback back and hands it the bytes.
	function onBody(this: BodyParser, bytes: Buffer): void {
		if (this.incoming !== response || (response as { _dumped?: boolean })._dumped) {
			restore();
			parserOnBody.call(this, bytes);
			return;
		}
		onBytes(bytes);
	}
	parser[slot] = onBody;
	return restore;
}
