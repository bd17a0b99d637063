// tapBody against a stand-in for Node's HTTP parser (the real one is exercised in http-post.test.ts):
// the shapes it declines, and a pooled parser that meets another response.
import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { tapBody } from "../../../src/ai/providers/body-tap.js";

class HTTPParser {
	static kOnBody = 3;
	[slot: number]: unknown;
	socket: unknown;
	incoming: unknown;
}

function setUp(onBody: (this: HTTPParser, bytes: Buffer) => void = function parserOnBody() {}) {
	const parser = new HTTPParser();
	const socket = { parser };
	const response = { socket, readableEncoding: null, readableFlowing: null, listenerCount: () => 0 } as unknown as IncomingMessage;
	parser.socket = socket;
	parser.incoming = response;
	parser[3] = onBody;
	return { parser, response };
}

describe("tapBody", () => {
	it("sends the body bytes to its callback and puts Node's back on undo", () => {
		const own = function parserOnBody() {};
		const { parser, response } = setUp(own);
		const got: string[] = [];
		const undo = tapBody(response, (bytes) => got.push(bytes.toString()));
		expect(undo).toBeTypeOf("function");
		(parser[3] as (this: HTTPParser, b: Buffer) => void).call(parser, Buffer.from("ab"));
		expect(got).toEqual(["ab"]);
		undo?.();
		expect(parser[3]).toBe(own);
	});

	it("hands a parser serving another response back to Node's callback, bytes included", () => {
		const seen: string[] = [];
		const own = function parserOnBody(this: HTTPParser, bytes: Buffer) {
			seen.push(bytes.toString());
		};
		const { parser, response } = setUp(own);
		const got: string[] = [];
		const undo = tapBody(response, (bytes) => got.push(bytes.toString()));
		// Freed to the pool and given to the next request before the first one's undo ran.
		parser.incoming = { other: true };
		(parser[3] as (this: HTTPParser, b: Buffer) => void).call(parser, Buffer.from("cd"));
		expect(got).toEqual([]);
		expect(seen).toEqual(["cd"]);
		expect(parser[3]).toBe(own);
		// The late undo leaves it alone.
		undo?.();
		expect(parser[3]).toBe(own);
	});

	it("leaves a response Node has dumped to Node's callback", () => {
		const { parser, response } = setUp();
		const got: Buffer[] = [];
		tapBody(response, (bytes) => got.push(bytes));
		(response as unknown as { _dumped: boolean })._dumped = true;
		(parser[3] as (this: HTTPParser, b: Buffer) => void).call(parser, Buffer.from("x"));
		expect(got).toEqual([]);
	});

	it("declines a parser or response that is not what it was written for", () => {
		const shapes: Array<(s: ReturnType<typeof setUp>) => void> = [
			({ parser }) => {
				parser[3] = function other() {};
			},
			({ parser }) => {
				parser.incoming = {};
			},
			({ parser }) => {
				parser.socket = {};
			},
			({ response }) => {
				(response.socket as unknown as { parser: null }).parser = null;
			},
			({ response }) => {
				Object.assign(response, { readableEncoding: "utf8" });
			},
			({ response }) => {
				Object.assign(response, { readableFlowing: true });
			},
			({ response }) => {
				Object.assign(response, { listenerCount: () => 1 });
			},
		];
		for (const change of shapes) {
			const set = setUp();
			const before = set.parser[3];
			change(set);
			const now = set.parser[3];
			expect(tapBody(set.response, () => {})).toBeUndefined();
			expect(set.parser[3]).toBe(now);
			expect(before).toBeTypeOf("function");
		}
	});
});
